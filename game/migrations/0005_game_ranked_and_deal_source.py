"""Every game knows where its deal came from and whether it ranks (``Game.deal_source`` and
``Game.ranked``); the next migration has the database hold them to the rules.

Existing games are classified from what the database knows. A race game was dealt to every racer:
``race``, unranked. A daily game with a ranked attempt is the attempt: ``daily``, ranked; any other
daily game replayed the day's deal. A casual game whose seed an earlier game had already dealt (its
player's "play again", a shared game, a daily deal played from its replay) is a ``replay``,
unranked; every other casual game was dealt fresh and ranks. Whether the player had asked for
winnable deals only was never stored, so those count as ``random``.
"""

from django.db import migrations, models
from django.db.models import Count


def classify(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    DailyAttempt = apps.get_model("leaderboard", "DailyAttempt")
    Game.objects.filter(mode="race").update(deal_source="race", ranked=False)
    attempts = DailyAttempt.objects.values("game_id")
    Game.objects.filter(mode="daily", id__in=attempts).update(deal_source="daily", ranked=True)
    Game.objects.filter(mode="casual").update(deal_source="random", ranked=True)
    # Seeds dealt more than once are few (fresh seeds are 128 random bits): only their games after
    # the first are looked at.
    repeated = list(
        Game.objects.values("seed")
        .annotate(games=Count("id"))
        .filter(games__gt=1)
        .values_list("seed", flat=True)
    )
    first_of: dict[str, object] = {}
    later = []
    dealt = Game.objects.filter(seed__in=repeated).order_by("started_at", "id")
    for game_id, seed in dealt.values_list("id", "seed").iterator():
        if seed in first_of:
            later.append(game_id)
        else:
            first_of[seed] = game_id
    for start in range(0, len(later), 500):
        Game.objects.filter(mode="casual", id__in=later[start : start + 500]).update(
            deal_source="replay", ranked=False
        )


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0004_live_games_index"),
        ("leaderboard", "0002_inactive_players_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="deal_source",
            field=models.CharField(
                choices=[
                    ("random", "A fresh secret deal"),
                    ("winnable", "A fresh secret deal the solver proves winnable"),
                    ("daily", "The day's secret deal, for the player's ranked attempt"),
                    ("race", "A race's fresh deal, dealt to every racer at once"),
                    ("replay", "A deal already seen: played again, shared, or a daily replay"),
                ],
                default="replay",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="ranked",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(classify, migrations.RunPython.noop),
    ]
