"""Solo runs get their mode (challenge or practice), whether the record is verified (a
challenge run without "Show me") and how many turns the player asked "Show me".

Rows made before the modes existed were played with "Show me" at hand and nothing
recorded its use: they become challenge runs that are *not* verified (the defaults
below), kept in their owner's history and bests marked "unverified" (docs/solo.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("solo", "0003_level_expert"),
    ]

    operations = [
        migrations.AddField(
            model_name="soloresult",
            name="mode",
            field=models.CharField(
                choices=[("challenge", "Challenge"), ("practice", "Practice")],
                default="challenge",
                max_length=10,
                verbose_name="mode",
            ),
        ),
        migrations.AddField(
            model_name="soloresult",
            name="verified",
            field=models.BooleanField(default=False, verbose_name="verified"),
        ),
        migrations.AddField(
            model_name="soloresult",
            name="hints",
            field=models.PositiveIntegerField(default=0, verbose_name="Show me uses"),
        ),
    ]
