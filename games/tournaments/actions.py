"""Tournament actions: each ``do_*`` function does one thing inside one transaction.

The pattern: lock the tournament row, check who asks, change, write an audit
entry (who, when, what, before, after), and broadcast the new standings to
the tournament's websocket group *after commit*.

Online rounds: seating a round opens one ``games.Table`` per tournament table.
Seats of entries are bound to their accounts (an online tournament needs an
account per player); ``None`` seats are CPU fill seats. A player who has not
reached their table ``arrival_s`` seconds after the round was seated is played
by their CPU (the tables' away rule) until they arrive. When a table's game
ends, ``do_post_game_result`` (the ``game_finished`` signal, inside the game's
last transaction) posts its result.

Duplicate tournaments (docs/duplicate.md): seating a round also draws its deals (``Deal``
rows: secret seeds, public commitments); every table of the round has the same number of
seats and its game is exactly those deals (``dealing.seed_for`` deals them); a result holds
each deal's hand totals (``TableResult.hands``: posted by the game, or typed deal by deal,
``do_enter_deal_results``); the standings come from ``duplicate_rounds``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.engine import game as engine_game
from games.engine import options as engine_options
from games.engine.refusals import Refusal
from games.engine.rules import rules_for
from games.live import actions as table_actions
from games.live import realtime
from games.models import CPU_LEVELS, Table

from . import dealing, duplicate, duplicate_rounds, seating
from . import results as result_rules
from . import standings as standing_rules
from .models import (
    AuditEntry,
    Deal,
    Entry,
    KeepApart,
    Round,
    TableResult,
    Tournament,
    TournamentTable,
    seed_commitment,
)

MAX_ROUNDS = 30
SETTINGS_FIELDS = (
    "name",
    "date",
    "variant",
    "options",
    "rounds",
    "mode",
    "scoring",
    "placing_points",
    "seating",
    "three_player_tables",
    "seed",
    "published",
    "arrival_s",
    "cpu_level",
    "late_entry_until",
    "format",
    "duplicate_scoring",
    "deals_per_round",
)
LOCKED_AFTER_START = (
    "variant",
    "options",
    "mode",
    "seed",
    "three_player_tables",
    "format",
    "duplicate_scoring",
    "deals_per_round",
)
MAX_DEALS = 16


class TournamentError(Exception):
    """A change the desk refuses: a stable code, an English message, and the
    parameters of its translated text (``messages.error_text``)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.params = code, message, params


class ResultRefused(TournamentError):
    """A table result that cannot happen: one problem per code (and seat)."""

    def __init__(self, problems: Sequence[Any]) -> None:
        super().__init__("bad_result", "; ".join(p.message for p in problems))
        self.problems = list(problems)


# ------------------------------------------------------------------ broadcast


def group_name(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def broadcast(tournament_id: int) -> None:
    table_actions.group_send(group_name(tournament_id), {"type": "standings.changed"})


def _on_commit_broadcast(tournament_id: int) -> None:
    transaction.on_commit(lambda: broadcast(tournament_id))


# ------------------------------------------------------------------- helpers


def _lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _require_organiser(t: Tournament, actor: Any) -> None:
    if not t.is_organiser(actor):
        raise TournamentError("not_organiser", "only the tournament's organisers can do that")


def _actor(actor: Any) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


def do_audit(
    t: Tournament,
    actor: Any,
    action: str,
    what: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=t,
        actor=_actor(actor),
        action=action,
        what=what[:200],
        before=before,
        after=after,
    )


def settings_snapshot(t: Tournament) -> dict[str, Any]:
    return {
        "name": t.name,
        "date": t.date.isoformat() if t.date else None,
        "variant": t.variant,
        "options": dict(t.options),
        "rounds": t.rounds,
        "mode": t.mode,
        "scoring": t.scoring,
        "placing_points": list(t.placing_points),
        "seating": t.seating,
        "three_player_tables": t.three_player_tables,
        "seed": t.seed,
        "published": t.published,
        "arrival_s": t.arrival_s,
        "cpu_level": t.cpu_level,
        "late_entry_until": t.late_entry_until,
        "format": t.format,
        "duplicate_scoring": t.duplicate_scoring,
        "deals_per_round": t.deals_per_round,
    }


def clean_settings(values: dict[str, Any]) -> dict[str, Any]:
    """Validate tournament settings (raises TournamentError); returns them cleaned.

    Tables seat four (``players`` is not a tournament option); a rule set that is also
    played by three (3 in its rules object's ``players``) may use three-player tables
    instead of CPU fill seats."""
    out = dict(values)
    variant = out.get("variant")
    options = {k: v for k, v in dict(out.get("options") or {}).items() if k != "players"}
    try:
        opts = engine_options.validate_options(variant, options)
    except Refusal as r:
        raise TournamentError(r.code, r.message) from r
    opts["players"] = 4
    out["options"] = opts
    rounds = out.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError("bad_rounds", "a tournament has between 1 and 30 rounds")
    points = out.get("placing_points")
    if points is not None:
        if (
            not isinstance(points, (list, tuple))
            or len(points) != 4
            or any(type(p) is not int or not -1000 <= p <= 1000 for p in points)
        ):
            raise TournamentError("bad_placing_points", "placing points are four whole numbers")
        out["placing_points"] = list(points)
    until = out.get("late_entry_until")
    if until is not None and (type(until) is not int or not 1 <= until <= rounds):
        raise TournamentError(
            "bad_late_entry", "late entry ends at a round of the tournament", rounds=rounds
        )
    three = out.get("three_player_tables")
    if three is not None and type(three) is not bool:  # an imported file may hold anything
        raise TournamentError("bad_option", "three-player tables is true or false")
    if three and 3 not in rules_for(variant).players:
        raise TournamentError(
            "no_three_player_tables", "this rule set is not played at three-player tables"
        )
    if out.get("mode") not in (None, *Tournament.Mode.values):
        raise TournamentError("bad_option", "unknown mode")
    if out.get("scoring") not in (None, *Tournament.Scoring.values):
        raise TournamentError("bad_option", "unknown scoring")
    if out.get("seating") not in (None, *Tournament.Seating.values):
        raise TournamentError("bad_option", "unknown seating method")
    if out.get("cpu_level") not in (None, *(code for code, _label in CPU_LEVELS)):
        raise TournamentError("bad_option", "unknown CPU level")
    _clean_duplicate(out)
    return out


def _clean_duplicate(out: dict[str, Any]) -> None:
    """The duplicate settings (docs/duplicate.md): the format, its scoring method and the
    deals of a round (None: one per seat of a table, so everyone starts once)."""
    if out.get("format") not in (None, *Tournament.Format.values):
        raise TournamentError("bad_option", "unknown format")
    if out.get("duplicate_scoring") not in (None, *Tournament.DuplicateScoring.values):
        raise TournamentError("bad_option", "unknown duplicate scoring")
    deals = out.get("deals_per_round")
    if deals is not None and (type(deals) is not int or not 1 <= deals <= MAX_DEALS):
        raise TournamentError(
            "bad_deals", "a duplicate round has from 1 to 16 deals", most=MAX_DEALS
        )
    if out.get("format") != Tournament.Format.DUPLICATE:
        return
    # IMPs need the rule set's scale (``duplicate.IMP_FACTOR``): refused now, not when the
    # first round's standings are computed
    if out.get("duplicate_scoring") == "imps" and out.get("variant") not in duplicate.IMP_FACTOR:
        raise TournamentError("imp_scale_unknown", "IMPs are not defined for this rule set")
    # Partners (fifty-one's and 101's option, the rules object's ``teams``) score as a
    # team: a seat's hand total depends on its partner's play, so it cannot be compared
    # alone with the same seat elsewhere; refused rather than scored by a rule of ours.
    if rules_for(out.get("variant")).teams(out["options"]):
        raise TournamentError("duplicate_partners", "partner play cannot be scored as duplicate")


def table_options(t: Tournament, seats: int) -> dict[str, Any]:
    """The engine options of one of this tournament's tables of ``seats`` seats."""
    return {**t.options, "players": seats}


def is_complete(t: Tournament) -> bool:
    """Every round seated and every table has its result."""
    rounds = list(t.round_set.prefetch_related("tables__result"))
    return len(rounds) == t.rounds and all(r.complete for r in rounds)


def do_finish_if_complete(t: Tournament, actor: Any) -> None:
    if t.status != Tournament.Status.FINISHED and is_complete(t):
        t.status = Tournament.Status.FINISHED
        t.save(update_fields=["status", "updated_at"])
        do_audit(t, actor, "finished", t.name)


# --------------------------------------------------------------- tournaments


def do_create_tournament(owner: Any, **values: Any) -> Tournament:
    """A new tournament in registration, owned by ``owner``."""
    cleaned = clean_settings(values)
    with transaction.atomic():
        t = Tournament(owner=owner)
        for key in SETTINGS_FIELDS:
            if key in cleaned and cleaned[key] is not None:
                setattr(t, key, cleaned[key])
        t.save()
        do_audit(t, owner, "created", t.name, None, settings_snapshot(t))
        return t


def do_update_tournament(tournament_id: int, actor: Any, **values: Any) -> Tournament:
    """Change a tournament's settings. Rule set, options, seed and mode are fixed
    once round 1 is seated; scoring may change (standings are recomputed)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        before = settings_snapshot(t)
        merged = {**before, **values}
        merged["date"] = values.get("date", t.date)
        cleaned = clean_settings(merged)
        seated = t.seated_rounds
        if seated:
            for key in LOCKED_AFTER_START:
                if cleaned[key] != before[key]:
                    raise TournamentError("locked_after_start", f"{key} is fixed once play began")
        if cleaned["rounds"] < seated:
            raise TournamentError("rounds_below_seated", "rounds already seated", n=seated)
        for key in SETTINGS_FIELDS:
            setattr(t, key, cleaned[key])
        if t.status == Tournament.Status.FINISHED and not is_complete(t):
            t.status = Tournament.Status.RUNNING
        t.save()
        after = settings_snapshot(t)
        if after != before:
            changed = {k: v for k, v in before.items() if after[k] != v}
            do_audit(t, actor, "settings", t.name, changed, {k: after[k] for k in changed})
        do_finish_if_complete(t, actor)
        _on_commit_broadcast(t.pk)
        return t


def do_add_organiser(tournament_id: int, actor: Any, username: str) -> Any:
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        user = get_user_model().objects.filter(username__iexact=username.strip()).first()
        if user is None:
            raise TournamentError("no_such_account", "no such account", username=username)
        if t.is_organiser(user):
            raise TournamentError("already_organiser", "already an organiser", username=username)
        t.organisers.add(user)
        do_audit(t, actor, "organiser_added", user.get_username(), None, user.get_username())
        return user


def do_remove_organiser(tournament_id: int, actor: Any, user_id: int) -> None:
    with transaction.atomic():
        t = _lock(tournament_id)
        if _actor(actor) is None or t.owner_id != actor.pk:
            raise TournamentError("not_owner", "only the owner can remove an organiser")
        user = t.organisers.filter(pk=user_id).first()
        if user is None:
            raise TournamentError("no_such_account", "no such organiser", username=str(user_id))
        t.organisers.remove(user)
        do_audit(t, actor, "organiser_removed", user.get_username(), user.get_username(), None)


# ------------------------------------------------------------------- players


def _entry(t: Tournament, entry_id: int) -> Entry:
    entry = Entry.objects.select_for_update().filter(tournament=t, pk=entry_id).first()
    if entry is None:
        raise TournamentError("no_such_entry", "no such player in this tournament")
    return entry


def _next_round(t: Tournament) -> int:
    return t.seated_rounds + 1


def _check_future_round(t: Tournament, number: int) -> None:
    if not isinstance(number, int) or number < 1 or number > t.rounds:
        raise TournamentError("bad_round", "no such round", round=number)
    if number <= t.seated_rounds:
        raise TournamentError("round_already_seated", "round already seated", round=number)


def do_register_entry(
    tournament_id: int,
    actor: Any,
    *,
    username: str = "",
    name: str = "",
    joins_round: int | None = None,
) -> Entry:
    """Register a player by account (username) or by name only. A late entry
    joins from a round not seated yet (default: the next one), up to the tournament's
    "late entry until round N" (``late_entry_until``; None: any round): a first round
    after N is refused (``late_entry_closed``), so once round N is seated registration
    is closed. The rounds a late entry missed count as last place in the standings
    (``standings.compute_standings(missed=…)``)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        if t.status == Tournament.Status.FINISHED:
            raise TournamentError("finished", "the tournament is over")
        user = None
        username, name = username.strip(), name.strip()[:60]
        if username:
            user = get_user_model().objects.filter(username__iexact=username).first()
            if user is None:
                raise TournamentError("no_such_account", "no such account", username=username)
            if t.entries.filter(user=user).exists():
                raise TournamentError("already_registered", "already registered", name=username)
            profile = getattr(user, "profile", None)
            if profile is not None and profile.is_bot:
                # bots play casual tables only (docs/bots-api.md): a tournament compares
                # people, and its seats are never a bot's
                raise TournamentError("bot_account", "a bot account cannot enter", name=username)
            if not name:
                profile = getattr(user, "profile", None)
                name = ((profile.name if profile is not None else "") or user.get_username())[:60]
        elif not name:
            raise TournamentError("name_needed", "a name or a username is needed")
        if t.online and user is None:
            raise TournamentError("account_needed", "online players need an account")
        first = joins_round if joins_round is not None else _next_round(t)
        until = t.late_entry_until
        if until is not None and isinstance(first, int) and first > max(1, until):
            raise TournamentError("late_entry_closed", "late entry is closed", n=until)
        _check_future_round(t, first)
        entry = Entry.objects.create(tournament=t, user=user, name=name, joins_round=first)
        do_audit(t, actor, "entry_added", entry.name, None, entry.snapshot())
        _on_commit_broadcast(t.pk)
        return entry


def _change_entry(t: Tournament, actor: Any, entry: Entry, action: str) -> None:
    before = Entry.objects.get(pk=entry.pk).snapshot()
    entry.save()
    do_audit(t, actor, action, entry.name, before, entry.snapshot())
    _on_commit_broadcast(t.pk)


def do_drop_entry(
    tournament_id: int, actor: Any, entry_id: int, from_round: int | None = None
) -> Entry:
    """The player plays no round from ``from_round`` on (default: the next round).
    Their results so far stay in the standings."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        entry = _entry(t, entry_id)
        first = from_round if from_round is not None else _next_round(t)
        _check_future_round(t, first)
        entry.dropped_from_round = first
        _change_entry(t, actor, entry, "entry_dropped")
        return entry


def do_reinstate_entry(tournament_id: int, actor: Any, entry_id: int) -> Entry:
    """Undo a drop-out (for the rounds not seated yet)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        entry = _entry(t, entry_id)
        dropped = entry.dropped_from_round
        if dropped is not None and dropped <= t.seated_rounds and t.seated_rounds >= t.rounds:
            # the drop-out took effect and no round is left to come back to
            raise TournamentError("no_more_rounds", "every round has been seated")
        entry.dropped_from_round = None
        _change_entry(t, actor, entry, "entry_reinstated")
        return entry


def do_set_no_show(
    tournament_id: int, actor: Any, entry_id: int, round_no: int, absent: bool = True
) -> Entry:
    """Mark (or unmark) a player absent for a round not seated yet: they are not
    seated in it."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        entry = _entry(t, entry_id)
        _check_future_round(t, round_no)
        rounds = set(entry.no_shows or [])
        rounds = rounds | {round_no} if absent else rounds - {round_no}
        entry.no_shows = sorted(rounds)
        _change_entry(t, actor, entry, "no_show" if absent else "no_show_cleared")
        return entry


def do_remove_entry(tournament_id: int, actor: Any, entry_id: int) -> None:
    """Delete a registration made by mistake (only before the player was seated)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        entry = _entry(t, entry_id)
        if any(entry.pid in tt.seats for tt in _tables(t)):
            raise TournamentError("already_seated", "already seated", name=entry.name)
        before = entry.snapshot()
        entry.delete()
        do_audit(t, actor, "entry_removed", before["name"], before, None)
        _on_commit_broadcast(t.pk)


# ------------------------------------------------------------ must-not-meet pairs


def keep_apart_pairs(t: Tournament) -> list[tuple[str, str]]:
    """The tournament's must-not-meet pairs as the seating's player ids."""
    return [k.pids for k in KeepApart.objects.filter(tournament=t)]


def do_add_keep_apart(tournament_id: int, actor: Any, first_id: int, second_id: int) -> KeepApart:
    """Two entries who must never sit at the same table (from the next round seated on;
    ``seating.seat_round(keep_apart=…)``)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        if t.status == Tournament.Status.FINISHED:
            raise TournamentError("finished", "the tournament is over")
        a, b = _entry(t, first_id), _entry(t, second_id)
        if a.pk == b.pk:
            raise TournamentError("same_entry", "choose two different players")
        a, b = (a, b) if a.pk < b.pk else (b, a)
        if KeepApart.objects.filter(first=a, second=b).exists():
            raise TournamentError("already_apart", "already kept apart", a=a.name, b=b.name)
        pair = KeepApart.objects.create(tournament=t, first=a, second=b)
        do_audit(t, actor, "apart_added", f"{a.name} / {b.name}", None, [a.name, b.name])
        _on_commit_broadcast(t.pk)
        return pair


def do_remove_keep_apart(tournament_id: int, actor: Any, pair_id: int) -> None:
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        pair = (
            KeepApart.objects.select_related("first", "second")
            .filter(tournament=t, pk=pair_id)
            .first()
        )
        if pair is None:
            raise TournamentError("no_such_pair", "no such pair in this tournament")
        names = [pair.first.name, pair.second.name]
        pair.delete()
        do_audit(t, actor, "apart_removed", " / ".join(names), names, None)
        _on_commit_broadcast(t.pk)


# ------------------------------------------------------------------- seating


def _tables(t: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=t)
        .select_related("round")
        .order_by("round__number", "number")
    )


def past_rounds(t: Tournament) -> list[list[list[str | None]]]:
    out: dict[int, list[list[str | None]]] = {}
    for tt in _tables(t):
        out.setdefault(tt.round.number, []).append(list(tt.seats))
    return [out[n] for n in sorted(out)]


def do_seat_next_round(tournament_id: int, actor: Any, *, at: dt.datetime | None = None) -> Round:
    """Seat the next round (the previous one must be complete): late entries
    join, drop-outs and no-shows are left out, CPU seats fill the tables (and go round:
    ``seating.cpu_turns``), must-not-meet pairs sit apart. If no seating keeps every pair
    apart, nothing is seated (``pairs_cannot_be_kept_apart``). Online, each table's game
    is opened at once."""
    at = at or timezone.now()
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        rounds = list(t.round_set.prefetch_related("tables__result"))
        number = len(rounds) + 1
        if t.status == Tournament.Status.FINISHED or number > t.rounds:
            raise TournamentError("no_more_rounds", "every round has been seated")
        if rounds and not rounds[-1].complete:
            raise TournamentError("round_not_complete", "round incomplete", round=len(rounds))
        entries = list(t.entries.select_related("user"))
        players = [e.pid for e in entries if e.plays_round(number)]
        if len(players) < 2:
            raise TournamentError("too_few_players", "at least two players are needed")
        by_pid = {e.pid: e for e in entries}
        if t.online:
            missing = [by_pid[p].name for p in players if by_pid[p].user_id is None]
            if missing:
                raise TournamentError(
                    "accounts_missing",
                    "online players need an account: " + ", ".join(missing),
                    names=", ".join(missing),
                )
        ranking = None
        if t.seating == Tournament.Seating.SWISS:
            ranking = [row.player for row in standings(t)]
        # Duplicate: every table of the round the same size (CPU seats fill it), as a deal
        # is for one player count; three-player tables only if all of them are.
        if t.duplicate:
            table_size, min_table_size = t.table_size, None
        else:
            table_size, min_table_size = 4, 3 if t.three_player_tables else None
        try:
            seated = seating.seat_round(
                players,
                past_rounds(t),
                seed=t.seed,
                round_no=number,
                table_size=table_size,
                min_table_size=min_table_size,
                method=t.seating,
                ranking=ranking,
                rounds_total=t.rounds,
                keep_apart=keep_apart_pairs(t),
            )
        except seating.SeatingImpossible as e:
            # nothing is seated; the desk names the pairs that cannot all be kept apart
            names = ", ".join(f"{by_pid[a].name} & {by_pid[b].name}" for a, b in e.pairs)
            code = "pairs_cannot_be_kept_apart" if e.proven else "pairs_not_kept_apart"
            raise TournamentError(code, str(e), tables=e.tables, pairs=names) from e
        rnd = Round.objects.create(tournament=t, number=number)
        seeds = _deal_round(t, rnd, table_size) if t.duplicate else None
        for st in seated:
            tt = TournamentTable.objects.create(round=rnd, number=st.number, seats=list(st.seats))
            if t.online:
                tt.game = _open_game(t, tt, by_pid, actor, at, seeds)
                tt.save(update_fields=["game"])
        t.status = Tournament.Status.RUNNING
        t.save(update_fields=["status", "updated_at"])
        do_audit(
            t,
            actor,
            "round_seated",
            f"round {number}",
            None,
            {
                "round": number,
                "tables": [
                    {"table": st.number, "seats": [by_pid[p].name if p else None for p in st.seats]}
                    for st in seated
                ],
                # a duplicate round's deals as published: their commitments only
                **({"commitments": [seed_commitment(x) for x in seeds]} if seeds else {}),
            },
        )
        _on_commit_broadcast(t.pk)
        return rnd


def _deal_round(t: Tournament, rnd: Round, players: int) -> list[str]:
    """A duplicate round's deals: one secret seed per deal (``dealing.seed_source``), its
    SHA-256 commitment public at once; each deal is for ``players`` seats."""
    deals = [
        Deal(round=rnd, number=n, seed=seed, commitment=seed_commitment(seed), players=players)
        for n, seed in enumerate((dealing.seed_source() for _ in range(t.deals_in_round)), 1)
    ]
    Deal.objects.bulk_create(deals)
    return [d.seed for d in deals]


def _open_game(
    t: Tournament,
    tt: TournamentTable,
    by_pid: dict[str, Entry],
    actor: Any,
    at: dt.datetime,
    seeds: Sequence[str] | None = None,
) -> Table:
    """Open and deal the online table of one tournament table (caller holds the
    tournament lock) through the table action ``do_seat_players``. Players count
    as away from the start; their CPU plays for them once ``arrival_s`` has
    passed and until they connect. ``seeds``: a duplicate round's deals, one hand each
    (the game is exactly that many hands, RULES.md D38; ``dealing.seed_for``)."""
    seats = [
        table_actions.SeatSpec("cpu", t.cpu_level)
        if pid is None
        else table_actions.SeatSpec("player", user=by_pid[pid].user, name=by_pid[pid].name)
        for pid in tt.seats
    ]
    token = dealing.opening.set(seeds)
    try:
        return table_actions.do_seat_players(
            variant=t.variant,
            options=table_options(t, len(tt.seats)),
            seats=seats,
            created_by=_actor(actor),
            away_since=at - table_actions.grace() + dt.timedelta(seconds=t.arrival_s),
            at=at,
            competitive=True,  # a tournament's table: no engine help for a seat
            deals=len(seeds) if seeds is not None else None,
        )
    except table_actions.ActionRefused as e:
        raise TournamentError(e.code, e.message) from e
    finally:
        dealing.opening.reset(token)


def do_deal_next_hand(tournament_id: int, actor: Any, table_id: int) -> Table:
    """Deal the next hand at an online table whose hand is over (games of several
    hands wait for a player's "Next hand"; when nobody is at the table the
    organiser deals it from the desk)."""
    with transaction.atomic():
        # No tournament row lock here: the game's row is locked by ``next_hand``, and a
        # game that ends locks its row before the tournament's (``do_post_game_result``).
        t = Tournament.objects.get(pk=tournament_id)
        _require_organiser(t, actor)
        tt = _table(t, table_id)
        if tt.game_id is None:
            raise TournamentError("no_game", "this table has no online game")
        game = Table.objects.get(pk=tt.game_id)
        try:
            table = table_actions.do_next_hand(game.pk, game.version)
        except table_actions.ActionRefused as e:
            raise TournamentError(e.code, e.message) from e
        do_audit(t, actor, "next_hand", f"round {tt.round.number} table {tt.number}")
        _on_commit_broadcast(t.pk)
        return table


# ------------------------------------------------------------------- results


def _table(t: Tournament, table_id: int) -> TournamentTable:
    tt = (
        TournamentTable.objects.select_related("round")
        .filter(round__tournament=t, pk=table_id)
        .first()
    )
    if tt is None:
        raise TournamentError("no_such_table", "no such table in this tournament")
    return tt


def result_problems(t: Tournament, seats: int, scores: Sequence[Any]) -> list[Any]:
    return list(
        result_rules.validate_table_result(t.variant, table_options(t, seats), list(scores))
    )


def do_enter_result(
    tournament_id: int, actor: Any, table_id: int, scores: Sequence[Any]
) -> TableResult:
    """Record (or correct) a table's result: one game score per seat. Scores
    that cannot happen under the variant are refused (``ResultRefused``); a
    correction keeps the old scores in the audit log."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        if t.duplicate:  # a duplicate table's result is its deals' (do_enter_deal_results)
            raise TournamentError("deal_lines_needed", "enter a duplicate table's deals")
        tt = _table(t, table_id)
        problems = result_problems(t, len(tt.seats), scores)
        if problems:
            raise ResultRefused(problems)
        clean = [int(s) for s in scores]
        existing = TableResult.objects.filter(table=tt).first()
        what = f"round {tt.round.number} table {tt.number}"
        if existing is None:
            result = TableResult.objects.create(
                table=tt, scores=clean, source=TableResult.Source.ENTERED, entered_by=_actor(actor)
            )
            do_audit(t, actor, "result_entered", what, None, {"scores": clean})
        else:
            before = {"scores": list(existing.scores), "source": existing.source}
            existing.scores = clean
            existing.source = TableResult.Source.ENTERED
            existing.entered_by = _actor(actor)
            existing.save()
            result = existing
            do_audit(t, actor, "result_corrected", what, before, {"scores": clean})
        do_finish_if_complete(t, actor)
        _on_commit_broadcast(t.pk)
        return result


# the largest hand total typed for one seat of one deal (far beyond any rule set's hand)
MAX_HAND_TOTAL = 10_000


@dataclass(frozen=True)
class DealProblem:
    """Why a typed deal line cannot be stored: a stable code, an English message, and
    the deal (1-based) and seat (0-based) it is about, if one."""

    code: str
    message: str
    deal: int | None = None
    seat: int | None = None


class DealResultRefused(TournamentError):
    """A duplicate table's deal lines that cannot be stored, one problem per line/seat."""

    def __init__(self, problems: Sequence[DealProblem]) -> None:
        super().__init__("bad_result", "; ".join(p.message for p in problems))
        self.problems = list(problems)


def deal_problems(t: Tournament, tt: TournamentTable, hands: Sequence[Any]) -> list[DealProblem]:
    """Every reason why ``hands`` (one line per deal of the round, one hand total per
    seat) cannot be a duplicate table's result: a line per deal, a whole number per
    seat, within ``MAX_HAND_TOTAL``; and the round's deals must be for this table's
    player count (``player_count_mismatch``: a deal is dealt for one player count)."""
    seats = len(tt.seats)
    deals = list(Deal.objects.filter(round_id=tt.round_id).order_by("number"))
    wrong = [d.number for d in deals if d.players != seats]
    if wrong:
        return [
            DealProblem(
                "player_count_mismatch",
                f"the deals of this round are for {deals[0].players} players, "
                f"this table has {seats} seats",
            )
        ]
    if len(hands) != len(deals):
        return [DealProblem("deal_count", f"enter one line for each of the {len(deals)} deals")]
    problems = []
    for d, line in enumerate(hands, 1):
        if not isinstance(line, (list, tuple)) or len(line) != seats:
            problems.append(DealProblem("seat_count", f"deal {d}: one score per seat", d))
            continue
        for seat, v in enumerate(line):
            if type(v) is not int:
                problems.append(
                    DealProblem(
                        "not_integer", f"deal {d}, seat {seat + 1}: a whole number", d, seat
                    )
                )
            elif abs(v) > MAX_HAND_TOTAL:
                problems.append(
                    DealProblem("out_of_range", f"deal {d}, seat {seat + 1}: too large", d, seat)
                )
    return problems


def do_enter_deal_results(
    tournament_id: int, actor: Any, table_id: int, hands: Sequence[Sequence[Any]]
) -> TableResult:
    """Record (or correct) a duplicate table's result: each deal's hand total per seat
    (the organiser copies them from the table's score sheet). The table's game scores
    are the start plus the deals' totals, as the online game counts them. A correction
    keeps the old lines in the audit log; nothing is stored when a line is refused."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_organiser(t, actor)
        if not t.duplicate:
            raise TournamentError("not_duplicate", "this tournament is not duplicate")
        tt = _table(t, table_id)
        problems = deal_problems(t, tt, hands)
        if problems:
            raise DealResultRefused(problems)
        clean = [[int(v) for v in line] for line in hands]
        start = engine_game.Game(t.variant, table_options(t, len(tt.seats))).start_points()
        scores = [start + sum(line[s] for line in clean) for s in range(len(tt.seats))]
        existing = TableResult.objects.filter(table=tt).first()
        what = f"round {tt.round.number} table {tt.number}"
        after = {"scores": scores, "hands": clean}
        if existing is None:
            result = TableResult.objects.create(
                table=tt,
                scores=scores,
                hands=clean,
                source=TableResult.Source.ENTERED,
                entered_by=_actor(actor),
            )
            do_audit(t, actor, "result_entered", what, None, after)
        else:
            before = {
                "scores": list(existing.scores),
                "hands": list(existing.hands),
                "source": existing.source,
            }
            existing.scores, existing.hands = scores, clean
            existing.source = TableResult.Source.ENTERED
            existing.entered_by = _actor(actor)
            existing.save()
            result = existing
            do_audit(t, actor, "result_corrected", what, before, after)
        _reveal_if_round_over(tt.round)
        do_finish_if_complete(t, actor)
        _on_commit_broadcast(t.pk)
        return result


def do_post_game_result(sender: Any, *, table: Table, game: Any, **kwargs: Any) -> None:
    """``game_finished`` receiver: a finished tournament game posts its result.

    Runs inside the transaction that records the game's last hand. A result an
    organiser already entered for that table is kept (and the game's totals
    are noted in the audit log)."""
    tt = (
        TournamentTable.objects.select_related("round")
        .filter(game_id=table.pk)
        .only("id", "round__tournament_id")
        .first()
    )
    if tt is None:
        return
    t = _lock(tt.round.tournament_id)
    tt = TournamentTable.objects.select_related("round").get(pk=tt.pk)
    totals = [int(x) for x in game.totals()]
    what = f"round {tt.round.number} table {tt.number}"
    existing = TableResult.objects.filter(table=tt).first()
    if existing is not None:
        do_audit(
            t, None, "game_result_ignored", what, {"scores": existing.scores}, {"scores": totals}
        )
        if t.duplicate:  # this game was the round's last one still being played
            _reveal_if_round_over(tt.round)
        return
    # each deal's hand totals (a duplicate round compares them seat by seat)
    hands = [[int(x) for x in h.totals] for h in game.hands] if table.deals is not None else []
    TableResult.objects.create(table=tt, scores=totals, hands=hands, source=TableResult.Source.GAME)
    # the organiser's rules: a seat whose player was gone is played by its CPU and scored
    # as played; the log says how many of each seat's turns the CPU played
    stand_in = {
        str(seat): total - own
        for seat, (own, total) in table.turn_shares().items()
        if own < total and tt.seats[seat] is not None
    }
    after = {"scores": totals, "stand_in_turns": stand_in}
    if hands:
        after["hands"] = hands
    do_audit(t, None, "result_posted", what, None, after)
    if t.duplicate:
        _reveal_if_round_over(tt.round)
    do_finish_if_complete(t, None)
    _on_commit_broadcast(t.pk)


def _reveal_if_round_over(rnd: Round) -> None:
    """The last table of a duplicate round has its result: the embargo is over, so each
    of the round's games re-renders its frames once this commits (the finished hands'
    racks and seeds appear at every table, RULES.md D38)."""
    if dealing.round_in_play(rnd.pk):
        return
    for game in Table.objects.filter(tournament_table__round=rnd):
        realtime.broadcast_on_commit(game, presence=True)


# ----------------------------------------------------------------- standings


def table_results(t: Tournament) -> list[standing_rules.TableResult]:
    rows = (
        TableResult.objects.filter(table__round__tournament=t)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    return [
        standing_rules.TableResult(
            round_no=r.table.round.number,
            table_no=r.table.number,
            seats=tuple(r.table.seats),
            scores=tuple(r.scores),
        )
        for r in rows
    ]


def standings(t: Tournament) -> list[standing_rules.StandingRow]:
    """The current ranking of every entry (CPU seats are never entries). The rounds a
    late entry missed (before their first round) count as last place. A duplicate
    tournament ranks by its complete rounds' matchpoints or IMPs (``duplicate_rounds``;
    ``TournamentError`` when the stored results cannot be compared)."""
    if t.duplicate:
        try:
            return duplicate_rounds.standings(t)
        except duplicate_rounds.DuplicateRefused as e:
            raise TournamentError(e.code, e.message) from e
    rows = list(t.entries.values_list("pk", "joins_round"))
    players = [str(pk) for pk, _ in rows]
    missed = {str(pk): range(1, first) for pk, first in rows if first > 1}
    return list(
        standing_rules.compute_standings(
            players,
            table_results(t),
            variant=t.variant,
            scoring=t.scoring,
            placing_points=tuple(t.placing_points),
            draw_seed=t.seed,
            missed=missed,
        )
    )
