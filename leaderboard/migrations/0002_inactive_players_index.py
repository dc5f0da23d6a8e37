"""A partial index of the deactivated (banned) players, on the user table.

Every board leaves those players out with ``NOT IN (SELECT id … WHERE NOT is_active)``; with this
index that list is read from a few index pages, not from a scan of every player.
"""

from django.conf import settings
from django.db import migrations

INDEX_NAME = "leaderboard_inactive_players"


def _user_table(apps, schema_editor):
    model = apps.get_model(settings.AUTH_USER_MODEL)
    quote = schema_editor.quote_name
    return quote(model._meta.db_table), quote(model._meta.pk.column), quote("is_active")


def create_index(apps, schema_editor):
    table, pk, is_active = _user_table(apps, schema_editor)
    schema_editor.execute(
        f"CREATE INDEX {schema_editor.quote_name(INDEX_NAME)} ON {table} ({pk}) WHERE NOT {is_active}"
    )


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX {schema_editor.quote_name(INDEX_NAME)}")


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_index, drop_index)]
