"""What the API answers, as typed schemas: ninja validates every answer against them and the
OpenAPI schema is made from them. They name no card of a game whose deal is still secret: the
only schemas that hold cards are a finished game's document and analysis, served only once its
deal may be shown (``game.selectors.deal_reveal_check``)."""

from typing import Annotated, Literal

from ninja import Schema
from pydantic import ConfigDict, Field, WithJsonSchema

from game.models import Mode, Status, Variant
from leaderboard.boards import BoardKind
from leaderboard.models import Deals

Time = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]
"""A moment in ISO 8601, UTC, with a Z (as the site writes times everywhere)."""
Day = Annotated[str, WithJsonSchema({"type": "string", "format": "date"})]
"""A UTC day, ``2026-11-30``."""
Link = Annotated[str, WithJsonSchema({"type": "string", "format": "uri-reference"})]
"""A path on the site, from its root."""

Period = Literal["all", "week"]
View = Literal["all", "clean"]


# ---- Errors ------------------------------------------------------------------------------------


class FieldError(Schema):
    """What is wrong with one query parameter."""

    parameter: str
    message: str


class Error(Schema):
    """Every refusal: a code to act on and a message to show."""

    error: str = Field(
        description="not_found, bad_request, method_not_allowed, rate_limited, "
        "game_in_progress or deal_hidden"
    )
    message: str
    reveal_after: Time | None = Field(
        None, description="deal_hidden: when the deal will be shown (the day's end)"
    )
    retry_after: int | None = Field(
        None, description="rate_limited: seconds to wait (also the Retry-After header)"
    )
    errors: list[FieldError] | None = Field(None, description="bad_request: each wrong parameter")


class Pending(Schema):
    """A finished game whose analysis is still being computed: ask again in a few seconds."""

    status: Literal["pending"]


# ---- Pages -------------------------------------------------------------------------------------


class Paging(Schema):
    """Where a page stands in its list. Pages are numbered from 1; a number past the end gives an
    empty page, and one past 10,000 is read as 10,000 (as the site's pages do)."""

    page: int
    has_previous: bool
    has_next: bool
    previous: Link | None = Field(description="the previous page, or null")
    next: Link | None = Field(description="the next page, or null")


# ---- Leaderboards ------------------------------------------------------------------------------


class BoardChoice(Schema):
    """Which board: its kind, the rules and deal pool whose ranked games it counts, the period
    (all time, or this week from Monday, UTC) and the games counted (all, or clean ones: played
    without hints)."""

    kind: BoardKind
    title: str
    variant: Variant
    deals: Deals
    period: Period
    week: Day | None = Field(description="the Monday of the week ranked, or null for all time")
    view: View


class BoardRow(Schema):
    """One row of a board. Each kind fills its own figures and leaves the others null: best
    (score, duration_ms, finished_at, game), wins (won, played), rate (win_rate, played, won),
    streak (streak, streak_at)."""

    rank: int
    player: str
    player_url: Link | None = Field(description="the player's profile in the API")
    score: int | None
    duration_ms: int | None
    finished_at: Time | None
    game: str | None = Field(description="the id of the game behind a best score")
    won: int | None
    played: int | None
    win_rate: float | None
    streak: int | None
    streak_at: Time | None


class BoardPage(Paging):
    """A page of a board, fifty rows to a page; a board lists its top 5,000 players."""

    board: BoardChoice
    rows: list[BoardRow]


class BoardTop(Schema):
    """The top of one board, and where the whole of it is."""

    board: BoardChoice
    rows: list[BoardRow]
    url: Link


class BoardsOverview(Schema):
    """The top ten of each of the four boards of one choice, as the leaderboards page shows."""

    boards: list[BoardTop]


# ---- The daily challenge -----------------------------------------------------------------------


class Daily(Schema):
    """One UTC day's challenge. ``commitment`` is the SHA-256 of the seed's UTF-8, in hex,
    published from the start; the seed and par only once the day is over."""

    date: Day
    variant: Variant
    commitment: str
    ends_at: Time
    over: bool
    seed: str | None = Field(description="null until the day is over")
    par: int | None = Field(description="null until the day is over (or while not computed)")
    url: Link


class DailyPage(Paging):
    """Days of the daily challenge, today's first, fifty to a page."""

    days: list[Daily]


# ---- Players -----------------------------------------------------------------------------------


class Statistics(Schema):
    """A player's record from their finished games (won, lost or given up; unranked included)."""

    games_played: int
    games_won: int
    games_unranked: int
    win_rate: float | None
    best_score: int | None
    average_score: float | None
    current_win_streak: int
    longest_win_streak: int
    average_win_ms: int | None
    daily_streak: int = Field(description="days in a row, to today or yesterday, with an attempt")


class Player(Schema):
    """A player's public profile: the figures of their profile page."""

    username: str
    joined: Time
    statistics: Statistics
    games: Link = Field(description="their finished games")
    url: Link


class GameSummary(Schema):
    """A finished game, as a player's list shows it: never a card."""

    id: str
    variant: Variant
    mode: Mode
    ranked: bool
    counts_on: str = Field(description="where the game counts, or why nowhere")
    status: Status
    score: int
    cards_left: int
    moves: int
    assisted: bool = Field(description="a hint was used")
    started_at: Time
    finished_at: Time | None
    duration_ms: int | None
    deal_revealed: bool = Field(description="its export and analysis may be asked for")
    reveal_after: Time | None = Field(description="a daily game's: when its deal is shown")
    url: Link
    export: Link
    analysis: Link


class GamePage(Paging):
    """A player's finished games, the latest started first, fifty to a page."""

    player: str
    games: list[GameSummary]


# ---- A finished game ---------------------------------------------------------------------------


class _Open(Schema):
    """A schema that passes on fields it does not name (a document keeps everything it holds)."""

    model_config = ConfigDict(extra="allow")


class GameDocument(_Open):
    """A finished game in the ``tripeaks-game/1`` format (the site's export.json): the deal and
    the move log, which ``python -m game.engine verify`` replays."""

    format: Literal["tripeaks-game/1"]
    id: str
    variant: Variant
    seed: str
    tableau: list[str] = Field(description="the 28 cards of the peaks, top row first")
    waste: str
    stock: list[str] = Field(description="the stock, the next card to draw first")
    moves: list[str] = Field(description='card codes, and "draw"')
    score: int
    status: Status
    player: str | None
    started_at: Time | None
    finished_at: Time | None
    duration_ms: int | None
    mode: Mode | None = None
    ranked: bool | None = None
    assisted: bool | None = None
    deal_source: str | None = None


class DrawWhilePlayFit(_Open):
    move: int
    fits: list[str]


class Streak(_Open):
    first_move: int
    length: int
    points: int
    broken_by: int | None = Field(description="the draw that ended it, or null")


class PlayOpeningNothing(_Open):
    move: int
    card: str | None
    openers: list[str]


class MissedKingAce(_Open):
    move: int
    waste: str | None
    cards: list[str]


class StockLeftForLast(_Open):
    move: int
    draws: int


class Analysis(_Open):
    """A finished game against the best its deal allowed: par (the solver's best score), a line
    of play that scores it, the share of par, and the mistakes by move number."""

    status: Status
    score: int
    par: int
    par_exact: bool | None = None
    par_line: list[str] | None = None
    share: float | None = None
    winnable: bool | None = None
    lost_at: int | None = None
    draws_while_play_fit: list[DrawWhilePlayFit] = Field(default_factory=list)
    streaks: list[Streak] = Field(default_factory=list)
    plays_opening_nothing: list[PlayOpeningNothing] = Field(default_factory=list)
    missed_king_ace: list[MissedKingAce] = Field(default_factory=list)
    stock_left_for_last: StockLeftForLast | None = None
