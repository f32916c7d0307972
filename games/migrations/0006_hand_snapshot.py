"""``Hand.state`` becomes ``Hand.snapshot``: the same column ("state"), now written at
the deal, every ``SNAPSHOT_EVERY`` actions and at the hand's end (games/models.py).
Nothing changes in the database: every stored state is a valid snapshot."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0005_table_rated_public_quick_match")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="hand", name="state"),
                migrations.AddField(
                    model_name="hand",
                    name="snapshot",
                    field=models.JSONField(db_column="state", default=dict),
                ),
            ],
            database_operations=[],
        )
    ]
