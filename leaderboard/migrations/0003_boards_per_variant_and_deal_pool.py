"""Every all-time and weekly board ranks one variant and one deal pool, and takes only ranked
games; a ranked daily attempt counts on its day's board only.

The score tables are emptied, keyed by variant and deal pool, and rebuilt from the games alone
with the code that rebuilds a player's rows (``leaderboard.tables``). A ranked attempt that ended
after its day used to count nowhere: it now ranks as it stood at midnight, as
``leaderboard.tables.day_result`` says (attempts still in play are closed by
``manage.py daily_prepare``, or when their day's board is read).
"""

from django.db import migrations, models
from django.db.models import Q
from django.utils import timezone

from leaderboard.models import day_end
from leaderboard.tables import (
    DAY_FIELDS,
    RESULT_FIELDS,
    best_rows,
    day_result,
    result_of,
    tables_of,
    tally_rows,
)

VARIANTS = [("tripeaks", "TriPeaks"), ("tripeaks-nowrap", "TriPeaks without wrap")]
DEALS = [("random", "Random deals"), ("winnable", "Winnable deals only")]
KEY = ["variant", "deals", "period", "clean_only"]


def empty_tables(apps, schema_editor):
    apps.get_model("leaderboard", "PlayerBest").objects.all().delete()
    apps.get_model("leaderboard", "PlayerTally").objects.all().delete()


def rebuild(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Move = apps.get_model("game", "Move")
    counted = (
        Game.objects.filter(
            owner__isnull=False, hidden=False, ranked=True, deal_source__in=["random", "winnable"]
        )
        .exclude(status="in_progress")
        .order_by("finished_at", "id")
        .values(*RESULT_FIELDS)
    )
    tables = tables_of(result_of(row) for row in counted.iterator())
    PlayerBest = apps.get_model("leaderboard", "PlayerBest")
    PlayerTally = apps.get_model("leaderboard", "PlayerTally")
    PlayerBest.objects.bulk_create((PlayerBest(**row) for row in best_rows(tables)), batch_size=500)
    PlayerTally.objects.bulk_create(
        (PlayerTally(**row) for row in tally_rows(tables)), batch_size=500
    )
    DailyAttempt = apps.get_model("leaderboard", "DailyAttempt")
    late = (
        DailyAttempt.objects.filter(score__isnull=True, game__hidden=False)
        .exclude(game__status="in_progress")
        .select_related("daily", "game")
    )
    now = timezone.now()
    for attempt in late.iterator():
        game = attempt.game
        moves = Move.objects.filter(game_id=game.id).order_by("seq").values_list("move", "played_at")
        result = day_result(
            {name: getattr(game, name) for name in DAY_FIELDS},
            ends_at=day_end(attempt.daily.date),
            now=now,
            moves=moves.iterator,
        )
        if result is not None:
            DailyAttempt.objects.filter(id=attempt.id).update(
                score=result.score, duration_ms=result.duration_ms, finished_at=result.finished_at
            )


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0006_game_ranked_constraints"),
        ("leaderboard", "0002_inactive_players_index"),
    ]

    operations = [
        migrations.RunPython(empty_tables, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="playerbest", name="player_best_unique"),
        migrations.RemoveConstraint(model_name="playertally", name="player_tally_unique"),
        migrations.RemoveIndex(model_name="playerbest", name="player_best_board"),
        migrations.RemoveIndex(model_name="playertally", name="player_tally_wins"),
        migrations.RemoveIndex(model_name="playertally", name="player_tally_rate"),
        migrations.RemoveIndex(model_name="playertally", name="player_tally_streak"),
        migrations.RemoveIndex(model_name="dailyattempt", name="daily_attempt_board"),
        *(
            migrations.AddField(
                model_name=model,
                name=name,
                field=models.CharField(choices=choices, default=default, max_length=length),
                preserve_default=False,
            )
            for model in ("playerbest", "playertally")
            for name, choices, default, length in (
                ("variant", VARIANTS, "tripeaks", 32),
                ("deals", DEALS, "random", 16),
            )
        ),
        migrations.AddConstraint(
            model_name="playerbest",
            constraint=models.UniqueConstraint(
                fields=("user", *KEY), name="player_best_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="playertally",
            constraint=models.UniqueConstraint(
                fields=("user", *KEY), name="player_tally_unique"
            ),
        ),
        *(
            migrations.AddConstraint(
                model_name=model,
                constraint=models.CheckConstraint(condition=condition, name=f"{table}_{name}"),
            )
            for model, table in (("playerbest", "player_best"), ("playertally", "player_tally"))
            for name, condition in (
                ("variant_valid", Q(variant__in=["tripeaks", "tripeaks-nowrap"])),
                ("deals_valid", Q(deals__in=["random", "winnable"])),
            )
        ),
        migrations.AddIndex(
            model_name="playerbest",
            index=models.Index(
                fields=[*KEY, "-score", "duration_ms", "finished_at", "user", "game"],
                name="player_best_board",
            ),
        ),
        migrations.AddIndex(
            model_name="playertally",
            index=models.Index(
                condition=Q(won__gt=0),
                fields=[*KEY, "-won", "played", "user"],
                name="player_tally_wins",
            ),
        ),
        migrations.AddIndex(
            model_name="playertally",
            index=models.Index(
                condition=Q(played__gte=10),
                fields=[*KEY, "-win_rate", "-played", "user", "won"],
                name="player_tally_rate",
            ),
        ),
        migrations.AddIndex(
            model_name="playertally",
            index=models.Index(
                condition=Q(longest_streak__gt=0),
                fields=[*KEY, "-longest_streak", "longest_streak_at", "user"],
                name="player_tally_streak",
            ),
        ),
        migrations.AddIndex(
            model_name="dailyattempt",
            index=models.Index(
                condition=Q(score__isnull=False),
                fields=["daily", "-score", "duration_ms", "finished_at", "user", "game"],
                name="daily_attempt_board",
            ),
        ),
        migrations.AddIndex(
            model_name="dailyattempt",
            index=models.Index(
                condition=Q(score__isnull=True), fields=["daily"], name="daily_attempt_open"
            ),
        ),
        migrations.RunPython(rebuild, migrations.RunPython.noop),
    ]
