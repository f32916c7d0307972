from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_profile_share_hands"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="is_bot",
            field=models.BooleanField(default=False, verbose_name="bot account"),
        ),
        migrations.AddField(
            model_name="profile",
            name="bot_since",
            field=models.DateTimeField(blank=True, null=True, verbose_name="bot since"),
        ),
    ]
