"""The API's request and response shapes (pydantic 2 through ninja's ``Schema``): the
OpenAPI document at /api/v1/openapi.json is generated from these."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from ninja import Field, Schema
from pydantic import ConfigDict

CpuLevel = Literal["easy", "medium", "hard", "expert"]


class Strict(Schema):
    """A request body: unknown keys are refused (a typo never silently means a default)."""

    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ rule sets


class OptionOut(Schema):
    name: str
    allowed: list[Any] = Field(description="every value the option may take")
    default: Any


class RuleSetOut(Schema):
    name: str = Field(description="the rule set's key (variant) in every other route")
    label: str
    title: str
    players: list[int] = Field(description="the numbers of seats it is played at")
    direction: str
    whole_rack: bool = Field(description="finished with the whole rack (no melds laid down)")
    options: list[OptionOut]


# ------------------------------------------------------------------ players


class RatingOut(Schema):
    variant: str
    rating: int
    uncertainty: int
    provisional: bool
    games: int


class PlayerOut(Schema):
    username: str
    name: str
    ratings: list[RatingOut]


class SeatSummary(Schema):
    position: int
    name: str
    cpu: bool


class GameSummary(Schema):
    code: str
    variant: str
    finished_at: datetime | None
    rated: bool
    players: list[SeatSummary]
    totals: list[int]
    hands: int


class GamesPage(Schema):
    total: int
    items: list[GameSummary]


class TokenOut(Schema):
    name: str
    prefix: str
    scopes: list[str]
    created_at: datetime


class MeOut(Schema):
    username: str
    name: str
    token: TokenOut


# ------------------------------------------------------------------ records


class ReviewDocument(Schema):
    """A game or hand in the site's exchange format (docs/review-format.md), signed. A game
    of fixed deals (a duplicate round, RULES.md D38) also carries ``deals`` (an int); the
    field is absent from any other game, as the signature covers exactly what is sent."""

    format: Literal["okey-review/1"]
    variant: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    # sent only by a game of fixed deals (the routes answer with ``exclude_unset``)
    deals: int | None = None
    signature: str


# ------------------------------------------------------------------ tables


class LivePlayer(Schema):
    name: str
    cpu: bool
    level: str | None = None
    rating: int | None = None


class LiveTableOut(Schema):
    code: str
    url: str
    variant: str
    label: str
    players: list[LivePlayer]
    hand_number: int | None
    hands_shown: int | None
    watchers: int


class SeatOut(Schema):
    position: int
    name: str
    cpu: bool
    level: str | None
    open: bool = Field(description="free for a person to take")
    you: bool


class TableOut(Schema):
    code: str
    url: str
    variant: str
    options: dict[str, Any]
    status: str
    version: int = Field(description="send it back with an action (stale ones are refused)")
    rated: bool
    public: bool
    seats: list[SeatOut]
    hand_number: int | None
    totals: list[int]


class ClockOut(Schema):
    my_turn: bool
    turn_deadline: datetime | None = Field(description="when the turn's clock runs out")


class SeatViewOut(Schema):
    table: TableOut
    seat: int
    view: dict[str, Any] | None = Field(
        description=(
            "the engine's view of the hand for this seat (games/engine/view.py): the own rack,"
            " the public table, legal action types; every rack only once the hand is over"
        )
    )
    legal: list[str]
    clock: ClockOut


class OtherSeatIn(Strict):
    kind: Literal["human", "cpu"]
    level: CpuLevel = "medium"


class CreateTableIn(Strict):
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    others: list[OtherSeatIn] | None = Field(
        default=None,
        max_length=8,
        description="seats 2.. (you take seat 1): open for a person, or a CPU; default CPUs",
    )
    public: bool = False
    rated: bool = False


class InviteIn(Strict):
    kind: Literal["person", "bot"]
    level: CpuLevel = "medium"


class InviteOut(Schema):
    kind: str
    url: str | None = Field(description="a person's invitation: the table's page to open")
    table: TableOut


class ActionIn(Strict):
    version: int = Field(ge=0, description="the table's version the move was chosen on")
    action: dict[str, Any] = Field(description='an engine action, e.g. {"type": "draw"}')


class VersionIn(Strict):
    version: int = Field(ge=0)


# ------------------------------------------------------------------ tournaments


class TournamentSummary(Schema):
    id: int
    name: str
    date: date
    variant: str
    format: str
    status: str
    rounds: int
    published: bool


class StandingOut(Schema):
    rank: int
    name: str
    points: str
    game_total: int
    played: int
    missed: int
    decided_by: str


class ResultSeatOut(Schema):
    position: int
    name: str
    cpu: bool
    score: int | None = Field(description="None until the result is in (or while concealed)")
    points: str


class ResultTableOut(Schema):
    number: int
    seats: list[ResultSeatOut]
    concealed: bool = Field(description="a duplicate round still played: no score shown")
    complete: bool


class RoundOut(Schema):
    number: int
    tables: list[ResultTableOut]


class TournamentOut(TournamentSummary):
    standings: list[StandingOut]
    standings_error: str | None
    results: list[RoundOut]
