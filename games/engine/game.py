"""A whole game across hands.

``Game`` keeps the per-hand results and applies each variant's game rules:

* ``classic``: countdown from ``start_points`` (10/20/30); the game ends after
  the hand in which someone reaches 0 or less; the highest score wins [D6: ties
  share the win].
* ``rummy``: race to the target of ``options.rummy_target`` [D7]; a shown
  indicator counts when shown (the hand then ends at once), a close when the hand
  ends. The first to reach it wins.
* ``fifty-one``: 1 or 3 hands; the lowest total wins; with partners the team
  totals (seats 0+2 and 1+3) decide [D14].
* ``seventeen``: seven rounds; the lowest total wins.

The starter moves one seat each hand [D2]. The web layer supplies each hand's seed.

A game of fixed deals (``deals``, duplicate play [D38]) is exactly that many hands, each
dealt as a game's first hand (the rule set's game context from the starting totals), so
every table that deals the same seeds plays the same hands; the rule set's own end of
the game (a countdown reaching 0, rummy's target) does not end it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .options import validate_options
from .refusals import Refusal
from .rules import Rules, rules_for
from .state import HandState, new_hand


@dataclass
class HandResult:
    """One finished hand: its seed, starter, ending and score lines (with reasons)."""

    seed: Any
    starter: int
    ending: str
    lines: list[dict]
    totals: list[int]

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "starter": self.starter,
            "ending": self.ending,
            "lines": self.lines,
            "totals": self.totals,
        }


@dataclass
class Game:
    variant: str
    options: dict = field(default_factory=dict)
    hands: list[HandResult] = field(default_factory=list)
    # duplicate play [D38]: exactly this many hands, each dealt as a game's first
    deals: int | None = None

    def __post_init__(self) -> None:
        self.options = validate_options(self.variant, self.options)
        if self.deals is not None and (type(self.deals) is not int or not 1 <= self.deals <= 64):
            raise Refusal("bad_option", "deals: a whole number of hands from 1 to 64")

    @property
    def n_players(self) -> int:
        return self.options["players"]

    @property
    def rules(self) -> Rules:
        return rules_for(self.variant)

    # ------------------------------------------------------------ hands
    def next_starter(self) -> int:
        """[D2] seat 0 starts the first hand; the starter moves one seat each hand."""
        return len(self.hands) % self.n_players

    def new_hand(self, seed: int | str) -> HandState:
        if self.is_over():
            raise Refusal("hand_over", "The game is over.")
        totals = self.totals() if self.deals is None else [self.start_points()] * self.n_players
        context = self.rules.game_context(totals)
        return new_hand(self.variant, self.options, seed, self.next_starter(), context=context)

    def record_hand(self, state: HandState) -> HandResult:
        """Add a finished hand's score lines to the game."""
        if not state.over:
            raise Refusal("wrong_phase", "The hand is not over yet.")
        if state.variant != self.variant or state.options != self.options:
            raise Refusal("bad_state", "That hand belongs to another game.")
        if self.is_over():
            raise Refusal("hand_over", "The game is over.")
        assert state.result is not None  # a hand that is over has its result
        res = HandResult(
            state.seed,
            state.starter,
            state.result["ending"],
            [dict(x) for x in state.scores],
            state.hand_totals(),
        )
        self.hands.append(res)
        return res

    # ------------------------------------------------------------ scores
    def start_points(self) -> int:
        return self.rules.game_start(self.options)

    def totals(self) -> list[int]:
        """Per-seat game totals (classic: points left of the countdown)."""
        out = [self.start_points()] * self.n_players
        for h in self.hands:
            for s, v in enumerate(h.totals):
                out[s] += v
        return out

    def team_totals(self) -> list[int] | None:
        """fifty-one with partners: [seats 0+2, seats 1+3]; otherwise None."""
        teams = self.rules.teams(self.options)
        if teams is None:
            return None
        t = self.totals()
        return [sum(t[s] for s in team) for team in teams]

    def target(self) -> int | None:
        return self.rules.game_target(self.options)

    def hands_to_play(self) -> int | None:
        if self.deals is not None:
            return self.deals
        return self.rules.game_hands(self.options)

    def current_round(self) -> int:
        """The round being played (1-based; the last round once the game is over)."""
        return len(self.hands) if self.is_over() else len(self.hands) + 1

    def is_over(self) -> bool:
        if self.deals is not None:
            return len(self.hands) >= self.deals
        return self.rules.game_over(self.totals(), len(self.hands), self.options)

    def winners(self) -> list[int]:
        """Winning seats (both partners in 2v2); empty while the game goes on.
        [D6] equal best totals share the win."""
        if not self.is_over():
            return []
        pick = max if self.rules.higher_wins else min
        teams = self.rules.teams(self.options)
        if teams is not None:
            tt = self.team_totals() or []
            best = pick(tt)
            return sorted(s for team, v in zip(teams, tt, strict=True) if v == best for s in team)
        t = self.totals()
        best = pick(t)
        return [s for s, v in enumerate(t) if v == best]

    def to_json(self) -> dict:
        return {
            "format": 1,
            "variant": self.variant,
            "options": dict(self.options),
            "hands": [h.to_json() for h in self.hands],
            "totals": self.totals(),
            "team_totals": self.team_totals(),
            "over": self.is_over(),
            "winners": self.winners(),
            "next_starter": self.next_starter(),
            "round": self.current_round(),
            "rounds": self.hands_to_play(),
            "target": self.target(),
            "deals": self.deals,
        }

    @classmethod
    def from_json(cls, data: dict) -> Game:
        try:
            if data.get("format") != 1:
                raise Refusal("bad_format")
            g = cls(data["variant"], data["options"], deals=data.get("deals"))
            for h in data["hands"]:
                totals = list(h["totals"])
                if len(totals) != g.n_players or any(type(x) is not int for x in totals):
                    raise ValueError("hand totals: one int per seat")
                if not isinstance(h["lines"], list) or not isinstance(h["ending"], str):
                    raise ValueError("hand lines/ending")
                g.hands.append(HandResult(h["seed"], h["starter"], h["ending"], h["lines"], totals))
            return g
        except Refusal:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Refusal("bad_state", f"damaged game: {exc}") from None
