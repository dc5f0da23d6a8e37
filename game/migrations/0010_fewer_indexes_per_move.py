"""Two indexes fewer for every move to write: ``game_move``'s on its game alone (the unique index
on (game, seq) serves every lookup by game) and ``game_game``'s on the guest key alone, with its
pattern twin (``game_guest_recent`` starts with the guest key)."""

import django.db.models.deletion
from django.db import migrations, models

MOVE_GAME_INDEX = "game_move_game_id_184dd3f2"
"""The name Django gave the index of ``game_move.game_id`` (a foreign key's, by default)."""


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0009_analysis_claim_holder"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="guest_key",
            field=models.CharField(blank=True, max_length=64),
        ),
        # Django would drop and add the foreign key again to drop its index, checking every move
        # ever stored under a lock that holds up every move being played: the index alone goes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="move",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="moves",
                        to="game.game",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {MOVE_GAME_INDEX}",
                    f"CREATE INDEX IF NOT EXISTS {MOVE_GAME_INDEX} ON game_move (game_id)",
                ),
            ],
        ),
    ]
