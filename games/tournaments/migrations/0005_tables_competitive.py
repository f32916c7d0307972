from django.db import migrations


def tournament_tables_are_competitive(apps, schema_editor):
    """A tournament's online table is competitive play (no engine help for a seat), played out
    under the organiser's rules."""
    Table = apps.get_model("games", "Table")
    Table.objects.filter(tournament_table__isnull=False).update(competitive=True, organised=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_tournament_cpu_level"),
        ("games", "0008_competitive_forfeit_hints"),
    ]

    operations = [
        migrations.RunPython(tournament_tables_are_competitive, migrations.RunPython.noop),
    ]
