"""A month of the open hand database built from games played through the real table
actions: which games go in, that every line imports again through the review's importer
hand for hand, and that nothing hidden or private is in the file (docs/hand-database.md)."""

from __future__ import annotations

import gzip
import hashlib
import json
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.management import CommandError, call_command

from games import plugins
from games.handdb import actions as handdb
from games.handdb import export
from games.handdb.models import HandMonth
from games.learn import actions as learn_actions
from games.live import actions
from games.models import Hand, Table
from games.review import actions as review_actions
from games.review import records
from tests.handdb.conftest import Clock, casual_game, play_game, rated_game, tournament_game
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db

MARCH = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
AFTER_MARCH = datetime(2026, 4, 2, tzinfo=UTC)
AFTER_APRIL = datetime(2026, 5, 2, tzinfo=UTC)


def lines_of(path) -> list[bytes]:
    with gzip.open(path, "rb") as handle:
        return handle.read().splitlines()


def build(month: str = "2026-03", now: datetime = AFTER_MARCH) -> handdb.Built:
    return handdb.do_build_month(month, now=now)


def account(username: str, name: str, **profile):
    user = make_user(username, name, **profile)
    user.email = f"{username}@mail.example"
    user.save()
    return user


def assert_reimports_as_stored(lines: bytes | list[bytes], table: Table) -> dict:
    """The lines of ``table`` (one, or one a deal of a duplicate game) import through the
    review's importer (their signature checked) and hold every finished hand of the
    table: seed, starter, each move and the result. Returns the first line's import."""
    lines = [lines] if isinstance(lines, bytes) else lines
    loads = [records.load_document(line) for line in lines]
    assert all(loaded["signed"] for loaded in loads)  # nothing changed on the way
    assert {loaded["variant"] for loaded in loads} == {table.variant}
    imported_hands = [h for loaded in loads for h in loaded["hands"]]
    stored = list(table.hands.filter(result__isnull=False).order_by("number"))
    assert [h.number for h in imported_hands] == [h.number + 1 for h in stored]
    for imported, hand in zip(imported_hands, stored, strict=True):
        assert (imported.seed, imported.starter) == (hand.seed, hand.starter)
        # each move, tiles named by kind (the format names no copy: RULES.md notation)
        moves = [records.action_to_events(a.payload) for a in hand.actions.order_by("index")]
        assert [records.action_to_events(a) for a in imported.actions] == moves
        assert imported.result["totals"] == hand.result["totals"]
        assert imported.result["ending"] == hand.result["ending"]
        lines_of_hand = [
            {"seat": s.seat, "points": s.points, "reason": s.reason}
            for s in hand.score_lines.order_by("id")
        ]
        assert imported.summary["lines"] == lines_of_hand
    return loads[0]


def test_a_month_imports_again_hand_for_hand_and_leaks_nothing_private():
    clock = Clock(MARCH)
    ayse = account("ayse_public", "Ayşe Yılmaz", public_records=True)
    bora = account("bora_hidden", "Bora Gizli")
    cem = account("cem_hidden", "")
    deniz = account("deniz_marked", "Deniz Işaretli", public_records=True, fair_play_marked=True)
    sharer = account("selin_sharer", "Selin Paylaşır", share_hands=True)
    keeper = account("kaan_keeper", "Kaan Saklar", public_records=True)
    guest_key = "guest-key-9f8e7d6c5b4a"

    rated = rated_game([ayse, bora, cem, deniz], clock)
    cup = tournament_game([bora, ayse], clock, deals=2)
    shared = casual_game(clock, user=sharer)
    casual_game(clock, user=keeper)  # keeps their casual games
    casual_game(clock, guest_key=guest_key)  # a guest cannot share
    casual_game(clock, user=sharer, humans=[keeper])  # one of the two does not share
    hints_table = casual_game(clock, user=sharer)
    Hand.objects.filter(table=hints_table).update(hints={"0": [1, 2]})
    # in play at the month's end: its hand's seed is still secret
    running = actions.do_seat_players(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("player", user=cem, name="Cem")]
        + [actions.SeatSpec("cpu", "easy")] * 3,
        at=clock(),
    )
    secret_seed = running.current_hand.seed
    link = review_actions.do_share_table(rated.pk, user=ayse)

    built = build()

    lines = lines_of(built.path)
    assert len(lines) == 5  # the duplicate game's two deals are a line each
    per_table = [
        (rated, lines[:1]),
        (cup, lines[1:3]),
        (shared, lines[3:4]),
        (hints_table, lines[4:]),
    ]
    docs = [assert_reimports_as_stored(mine, table) for table, mine in per_table]
    row = HandMonth.objects.get(month="2026-03")
    assert (row.games, row.hands) == (4, 1 + 2 + 1 + 1)
    assert built.skipped == {"not_shared": 3}

    # names: the public name, a monthly pseudonym, CPUs by level
    pseudonym_bora = export.pseudonym("2026-03", bora.pk)
    names = [[p["name"] for p in d["players"]] for d in docs]
    assert names[0] == [
        "Ayşe Yılmaz",
        pseudonym_bora,
        export.pseudonym("2026-03", cem.pk),
        export.pseudonym("2026-03", deniz.pk),  # off the boards while marked
    ]
    assert names[1] == [pseudonym_bora, "Ayşe Yılmaz", "CPU (hard)", "CPU (hard)"]
    assert names[2][0] == export.pseudonym("2026-03", sharer.pk)
    assert [p["cpu"] for p in docs[1]["players"]] == [None, None, "hard", "hard"]

    # nothing private in the bytes
    text = b"\n".join(lines).decode()
    for user in (ayse, bora, cem, deniz, sharer, keeper):
        assert user.email not in text
    for private in (
        "bora_hidden",
        "Bora Gizli",
        "cem_hidden",
        "deniz_marked",
        "Deniz Işaretli",
        "selin_sharer",
        "Selin Paylaşır",
        "kaan_keeper",
        "Kaan Saklar",
        "ayse_public",  # a public account is named as the boards name it, not by username
        "Typed",  # what an organiser typed for a seat
        guest_key,
        link.token,
        rated.code,
        f'"{secret_seed}"',
        "hints",
    ):
        assert private not in text, private
    for line in lines:
        export.check_schema(json.loads(line))


def test_a_pseudonym_is_one_player_within_a_month_and_another_the_next_month():
    users = [account(f"p{i}", f"Hidden {i}") for i in range(4)]
    rated_game(users, Clock(MARCH))
    rated_game(users, Clock(datetime(2026, 3, 20, tzinfo=UTC)))
    rated_game(users, Clock(datetime(2026, 4, 5, tzinfo=UTC)))
    march = [json.loads(line) for line in lines_of(build().path)]
    april = [json.loads(line) for line in lines_of(build("2026-04", AFTER_APRIL).path)]
    first, second = ([p["name"] for p in d["players"]] for d in march)
    assert first == second  # the same four players in the same seats
    assert len(set(first)) == 4
    assert all(n.startswith("Player ") for n in first)
    (later,) = ([p["name"] for p in d["players"]] for d in april)
    assert not set(later) & set(first)
    for user in users:
        assert str(user.pk) not in {n.removeprefix("Player ") for n in first}


def test_a_game_belongs_to_the_utc_month_it_finished_in():
    clock = Clock(MARCH)
    users = [account(f"b{i}", "") for i in range(4)]
    last_march, first_april, end_february = (rated_game(users, clock) for _ in range(3))
    for table, at in [
        (last_march, datetime(2026, 3, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        (first_april, datetime(2026, 4, 1, tzinfo=UTC)),
        (end_february, datetime(2026, 2, 28, 23, 59, 59, tzinfo=UTC)),
    ]:
        Table.objects.filter(pk=table.pk).update(finished_at=at)
    march = lines_of(build().path)
    assert len(march) == 1
    assert_reimports_as_stored(march[0], last_march)
    april = lines_of(build("2026-04", AFTER_APRIL).path)
    assert len(april) == 1
    assert_reimports_as_stored(april[0], first_april)
    assert HandMonth.objects.get(month="2026-03").games == 1


def test_a_month_without_games_is_an_empty_file():
    built = build("2026-01", datetime(2026, 2, 1, tzinfo=UTC))
    assert lines_of(built.path) == []
    row = built.row
    assert (row.games, row.hands) == (0, 0)
    assert row.size == built.path.stat().st_size
    assert row.sha256 == hashlib.sha256(built.path.read_bytes()).hexdigest()


def test_building_again_gives_the_same_bytes_and_replaces_the_row():
    users = [account(f"d{i}", f"Name {i}", public_records=i % 2 == 0) for i in range(4)]
    rated_game(users, Clock(MARCH))
    first = build(now=AFTER_MARCH)
    first_bytes = first.path.read_bytes()
    again = build(now=datetime(2026, 6, 1, tzinfo=UTC))
    assert again.path.read_bytes() == first_bytes
    assert HandMonth.objects.count() == 1
    row = HandMonth.objects.get()
    assert row.sha256 == hashlib.sha256(first_bytes).hexdigest()
    assert row.built_at == datetime(2026, 6, 1, tzinfo=UTC)
    assert sorted(p.name for p in first.path.parent.iterdir()) == ["okey-hands-2026-03.jsonl.gz"]


def test_a_duplicate_rounds_deals_wait_for_the_end_of_its_embargo(monkeypatch):
    clock = Clock(MARCH)
    cup = tournament_game([account("e0", ""), account("e1", "")], clock)
    monkeypatch.setattr(plugins, "deal_embargoed", lambda table: table.pk == cup.pk)
    built = build()
    assert lines_of(built.path) == []
    assert built.skipped == {"embargoed": 1}
    assert "still played at another table" in run_command("2026-03", at=AFTER_MARCH)
    monkeypatch.setattr(plugins, "deal_embargoed", lambda table: False)
    (line,) = lines_of(build().path)
    assert_reimports_as_stored(line, cup)


def test_a_lesson_never_goes_in():
    learner = account("learner", "", share_hands=True)
    table = learn_actions.do_start_lesson("fifty-one", user=learner)
    hand = table.current_hand
    assert hand.seed.startswith("learn:")
    # a lesson is one scripted hand that rarely ends its game; one that does stays out
    Hand.objects.filter(pk=hand.pk).update(result={"totals": [0, 0, 0, 0]})
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, finished_at=MARCH)
    built = build()
    assert lines_of(built.path) == []
    assert built.skipped == {"lesson": 1}


def test_a_solo_run_of_a_sharing_player_goes_in():
    sharer = account("solo_sharer", "", share_hands=True)
    table = actions.do_create_table(
        variant="fifty-one",
        options={"hands": 1},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "expert")] * 3,
        user=sharer,
        kind=Table.Kind.SOLO,
        competitive=True,
    )
    play_game(table, Clock(MARCH))
    (line,) = lines_of(build().path)
    doc = assert_reimports_as_stored(line, table)
    assert [p["name"] for p in doc["players"]][1:] == ["CPU (expert)"] * 3


def test_a_seat_whose_account_was_deleted_is_a_guest():
    users = [account(f"g{i}", f"Gone {i}") for i in range(4)]
    table = rated_game(users, Clock(MARCH))
    users[2].delete()
    users[3].delete()
    (line,) = lines_of(build().path)
    doc = assert_reimports_as_stored(line, table)
    assert [p["name"] for p in doc["players"]][2:] == ["Guest 1", "Guest 2"]
    assert "Gone" not in line.decode()


def test_a_duplicate_game_is_a_line_a_deal_and_each_imports():
    """Each deal of a duplicate game is dealt as a game's first hand (RULES.md D38); the
    importer bounds a game by its rule set's length (a fifty-one game of one hand here), so
    the three deals go in as three one-hand documents."""
    users = [account(f"l{i}", "") for i in range(2)]
    table = tournament_game(users, Clock(MARCH), deals=3, variant="fifty-one", options={"hands": 1})
    lines = lines_of(build().path)
    assert len(lines) == 3
    assert_reimports_as_stored(lines, table)
    docs = [json.loads(line) for line in lines]
    assert [[h["number"] for h in d["hands"]] for d in docs] == [[1], [2], [3]]
    assert len({json.dumps(d["players"]) for d in docs}) == 1  # the same names in each
    row = HandMonth.objects.get()
    assert (row.games, row.hands) == (1, 3)
    with pytest.raises(records.ImportRefused, match="Too many hands"):
        # the whole game as one document: what the format cannot hold
        records.load_document(
            json.dumps({**docs[0], "hands": [d["hands"][0] for d in docs]}).encode()
        )


def run_command(*args: str, at: datetime) -> str:
    from io import StringIO

    out = StringIO()
    with time_machine.travel(at, tick=False):
        call_command("build_hand_month", *args, stdout=out)
    return out.getvalue()


def test_the_command_builds_a_month_once_it_is_over():
    users = [account(f"c{i}", "") for i in range(4)]
    rated_game(users, Clock(MARCH))
    out = run_command("2026-03", at=AFTER_MARCH)
    row = HandMonth.objects.get()
    assert f"okey-hands-2026-03.jsonl.gz: 1 games, 1 hands, {row.size} bytes" in out
    assert row.sha256 in out
    with pytest.raises(CommandError, match="not over yet"):
        run_command("2026-04", at=datetime(2026, 4, 30, 23, 59, tzinfo=UTC))
    for bad in ("2026-13", "2026-3", "March", "2026-03-01"):
        with pytest.raises(CommandError, match="is not a month"):
            run_command(bad, at=AFTER_MARCH)
    assert HandMonth.objects.count() == 1


def test_a_rated_game_everyone_left_goes_in_without_its_hand_in_play():
    """Every person left after the first hand (games/live/actions/leavers.py): the game
    is finished with its second hand dealt and unplayed, whose seed stays secret."""
    clock = Clock(MARCH)
    users = [account(f"left{i}", "") for i in range(4)]
    table = actions.do_create_table(
        variant="fifty-one",
        options={"hands": 3},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        user=users[0],
        rated=True,
    )
    for user in users[1:]:
        actions.do_join_table(table.pk, user=user)
    table = play_game(table, clock, hands=1)
    actions.do_next_hand(table.pk, table.version, at=clock())
    in_play = Table.objects.get(pk=table.pk).current_hand
    assert in_play.number == 1 and in_play.result is None
    for user in users:
        actions.do_leave_game(table.pk, user=user, at=clock())
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    (line,) = lines_of(build().path)
    doc = assert_reimports_as_stored(line, table)
    assert len(doc["hands"]) == 1
    assert f'"{in_play.seed}"' not in line.decode()
