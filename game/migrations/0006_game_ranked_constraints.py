"""The database holds games to the rules of ranking: a game ranks only on a deal nobody could have
seen (``random``, ``winnable``, ``daily``), and each mode has its own deal sources.

Apart from the previous migration, which classifies the existing games: on PostgreSQL a table just
updated cannot be altered in the same transaction.
"""

from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [("game", "0005_game_ranked_and_deal_source")]

    operations = [
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=Q(mode="casual", deal_source__in=["random", "winnable", "replay"])
                | Q(mode="daily", deal_source__in=["daily", "replay"])
                | Q(mode="race", deal_source__in=["race"]),
                name="game_deal_source_fits_mode",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=Q(ranked=False) | Q(deal_source__in=["random", "winnable", "daily"]),
                name="game_ranked_only_on_a_secret_deal",
            ),
        ),
    ]
