"""The table actions (``games.live.actions.do_*``): every write to a table is one of
them, and each tells the table's connections once it has committed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.live import actions as table_actions
from games.live import realtime
from games.models import Table
from games.review import actions as review_actions
from tests.games.conftest import cpu_table

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def broadcasts(monkeypatch) -> list[tuple[int, int]]:
    """The (table id, version) of every broadcast sent, once its transaction commits."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        realtime, "broadcast", lambda table_id, version, **kw: sent.append((table_id, version))
    )
    return sent


def solo_table(user: User) -> Table:
    seats = [table_actions.SeatSpec("me")] + [table_actions.SeatSpec("cpu", "easy")] * 3
    return table_actions.do_create_table(
        variant="classic", options={}, seats=seats, user=user, kind=Table.Kind.SOLO
    )


def test_abandoning_a_solo_game_tells_its_open_tabs(
    client, broadcasts, django_capture_on_commit_callbacks
):
    user = User.objects.create_user("ayse", password="x")
    client.force_login(user)
    table = solo_table(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("solo:abandon", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    # another tab of the game hears of it (its next move would be refused anyway)
    assert broadcasts == [(table.pk, table.version)]


def test_abandoning_a_finished_or_abandoned_game_changes_nothing(
    broadcasts, django_capture_on_commit_callbacks
):
    user = User.objects.create_user("ayse", password="x")
    table = solo_table(user)
    table_actions.do_abandon_solo(table.pk, user=user)
    table.refresh_from_db()
    version = table.version
    with django_capture_on_commit_callbacks(execute=True):
        table_actions.do_abandon_solo(table.pk, user=user)
    table.refresh_from_db()
    assert table.version == version and broadcasts == []


def test_only_its_player_abandons_a_solo_game_and_only_a_solo_one():
    owner = User.objects.create_user("ayse", password="x")
    stranger = User.objects.create_user("mehmet", password="x")
    table = solo_table(owner)
    with pytest.raises(table_actions.ActionRefused) as e:
        table_actions.do_abandon_solo(table.pk, user=stranger)
    assert e.value.code == "not_seated"
    online = cpu_table(user=owner)
    with pytest.raises(table_actions.ActionRefused):
        table_actions.do_abandon_solo(online.pk, user=owner)
    for t in (table, online):
        t.refresh_from_db()
        assert t.status == Table.Status.PLAYING


def test_a_move_is_broadcast_after_commit_with_its_new_version(
    broadcasts, django_capture_on_commit_callbacks
):
    table = cpu_table()
    state = table_actions.load_state(table.current_hand)
    with django_capture_on_commit_callbacks(execute=True):
        moved = table_actions.do_submit_action(
            table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, table.version
        )
    assert broadcasts == [(table.pk, moved.version)] and moved.version == table.version + 1


def test_a_refused_move_broadcasts_nothing(broadcasts, django_capture_on_commit_callbacks):
    table = cpu_table()
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(table_actions.ActionRefused),
    ):
        table_actions.do_submit_action(table.pk, 1, {"type": "draw"}, table.version)
    assert broadcasts == []


def test_a_game_is_shared_only_by_its_players_once_it_is_finished():
    owner = User.objects.create_user("ayse", password="x")
    stranger = User.objects.create_user("mehmet", password="x")
    table = cpu_table(user=owner)
    with pytest.raises(table_actions.ActionRefused) as e:
        review_actions.do_share_table(table.pk, user=owner)
    assert e.value.code == "game_not_over"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    with pytest.raises(table_actions.ActionRefused) as e:
        review_actions.do_share_table(table.pk, user=stranger)
    assert e.value.code == "not_seated"
    link = review_actions.do_share_table(table.pk, user=owner)
    assert link.active and link.created_by == owner
    with pytest.raises(table_actions.ActionRefused):
        review_actions.do_revoke_share(link.pk, user=stranger)
    link.refresh_from_db()
    assert link.active
    revoked = review_actions.do_revoke_share(link.pk, user=owner)
    when = revoked.revoked_at
    assert not revoked.active
    # revoking again keeps the first revocation
    assert review_actions.do_revoke_share(link.pk, user=owner).revoked_at == when


def test_an_imported_games_commentary_is_kept_once_per_hand_and_seat():
    from games.review.models import ImportedRecord

    rec = ImportedRecord.objects.create(variant="classic", title="a game", data={})
    stale = ImportedRecord.objects.get(pk=rec.pk)  # what a parallel request read
    assert review_actions.do_note_import_commentary(rec.pk, "1:0", {"by": "first"}) == {
        "by": "first"
    }
    # another seat's commentary, kept from a request that read the record before:
    # the first one is not lost
    assert stale.commentary == {}
    review_actions.do_note_import_commentary(stale.pk, "1:1", {"by": "second"})
    # the same hand and seat again: the first one stays
    assert review_actions.do_note_import_commentary(rec.pk, "1:0", {"by": "late"}) == {
        "by": "first"
    }
    rec.refresh_from_db()
    assert rec.commentary == {"1:0": {"by": "first"}, "1:1": {"by": "second"}}


# ------------------------------------------------------------ tournament tables


def test_a_tournaments_online_tables_are_opened_by_the_seating_action(
    monkeypatch, broadcasts, django_capture_on_commit_callbacks
):
    from games.tournaments import actions as tournaments
    from tests.tournaments.conftest import online, register_accounts

    opened: list[Table] = []
    real = table_actions.do_seat_players

    def spy(**kw):
        opened.append(real(**kw))
        return opened[-1]

    monkeypatch.setattr(table_actions, "do_seat_players", spy)
    organiser = User.objects.create_user("orga", password="x")
    t = online(organiser)
    register_accounts(t, organiser, ["ayse", "baran", "cem", "deniz", "elif", "fatma"])
    with django_capture_on_commit_callbacks(execute=True):
        rnd = tournaments.do_seat_next_round(t.pk, organiser)
    games = [tt.game for tt in rnd.tables.select_related("game").order_by("number")]
    assert len(games) == 2 and sorted(g.pk for g in opened) == sorted(g.pk for g in games)
    # each table's players hear of its first hand once the seating has committed
    assert sorted(broadcasts) == sorted((g.pk, g.version) for g in games)


def test_seating_named_players_keeps_their_places_and_deals(
    broadcasts, django_capture_on_commit_callbacks
):
    ayse = User.objects.create_user("ayse", password="x")
    baran = User.objects.create_user("baran", password="x")
    since = table_actions.now()
    seats = [
        table_actions.SeatSpec("player", user=ayse, name="Ayşe"),
        table_actions.SeatSpec("player", user=baran, name="Baran"),
        table_actions.SeatSpec("cpu", "hard"),
        table_actions.SeatSpec("cpu"),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        # seventeen seats two people opposite [D4] when a table is created from the
        # lobby; a tournament's seating is its own and is kept as given
        table = table_actions.do_seat_players(
            variant="seventeen", options={}, seats=seats, away_since=since
        )
    got = list(table.seats.order_by("position"))
    assert [(s.user, s.name) for s in got[:2]] == [(ayse, "Ayşe"), (baran, "Baran")]
    assert all(s.away_since == since for s in got[:2])
    assert [(s.is_cpu, s.cpu_level) for s in got[2:]] == [(True, "hard"), (True, "medium")]
    assert table.status == Table.Status.PLAYING and table.current_hand is not None
    assert broadcasts == [(table.pk, table.version)]


def test_seating_players_refuses_open_seats_and_a_wrong_count():
    ayse = User.objects.create_user("ayse", password="x")
    player = table_actions.SeatSpec("player", user=ayse, name="Ayşe")
    for seats, code in [
        (
            [player, table_actions.SeatSpec("human")] + [table_actions.SeatSpec("cpu")] * 2,
            "bad_option",
        ),
        ([player] + [table_actions.SeatSpec("cpu")] * 2, "bad_option"),
    ]:
        with pytest.raises(table_actions.ActionRefused) as e:
            table_actions.do_seat_players(variant="classic", options={"players": 4}, seats=seats)
        assert e.value.code == code
    assert not Table.objects.exists()


# ------------------------------------------------------------ no write elsewhere

WRITES = {"save", "delete", "create", "bulk_create", "update", "update_or_create", "get_or_create"}
# The modules that parse, authorise and call one action; none of them writes itself.
CALLERS = [
    "games/views.py",
    "games/solo/views.py",
    "games/review/views.py",
    "games/live/consumers.py",
]


def model_writes(path: str) -> set[tuple[str, str]]:
    """Each call in the file that writes a model: (path, "receiver.method")."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITES:
            continue
        receiver = ast.unparse(node.func.value)
        if receiver.endswith("session"):  # the visitor's session, not a table
            continue
        # a model's manager or queryset (``X.objects...``) or an instance's save/delete
        if ".objects" in receiver or node.func.attr in {"save", "delete"}:
            found.add((path, f"{receiver}.{node.func.attr}"))
    return found


def test_views_and_consumers_write_nothing_themselves():
    found = set().union(*(model_writes(p) for p in CALLERS))
    assert found == set()


# The table's own models: only the table actions (games/live/actions/) write them.
TABLE_MODELS = {"Table", "Seat", "Hand", "HandAction", "ScoreLine", "SeatConnection"}
# Outside the site: the benchmark harness retires the tables it made on a shared database,
# and the pages benchmark lists its run's tables as public (so /watch/ shows them).
TABLE_WRITERS_KNOWN = {
    ("games/tools/site/servers.py", "Table.update"),
    ("games/tools/site/pages.py", "Table.update"),
    # the Insights bench stores 5,000 finished hands at once (a tool, never the site)
    ("games/tools/site/insights_bench.py", "Table.create"),
    ("games/tools/site/insights_bench.py", "Seat.create"),
    ("games/tools/site/insights_bench.py", "Hand.create"),
    ("games/tools/site/insights_bench.py", "Hand()"),
    ("games/tools/site/insights_bench.py", "Hand.bulk_create"),
}


def table_model_writes(path: Path) -> set[tuple[str, str]]:
    """Each write of a table model in the file: a new instance (``Seat(...)``) or a
    write through its manager (``Table.objects....create()``)."""
    rel = path.relative_to(ROOT).as_posix()
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in TABLE_MODELS:
            found.add((rel, f"{node.func.id}()"))
        elif isinstance(node.func, ast.Attribute) and node.func.attr in WRITES | {"bulk_update"}:
            model = ast.unparse(node.func.value).split(".")[0]
            if model in TABLE_MODELS:
                found.add((rel, f"{model}.{node.func.attr}"))
    return found


def test_only_the_table_actions_create_tables_and_seats():
    """The tournament desk, the solo and review apps and the rest open no table
    and write no seat or hand themselves."""
    files = [
        p
        for p in (ROOT / "games").rglob("*.py")
        if ROOT / "games/live/actions" not in p.parents
        and not {"engine", "migrations"} & set(p.parts)
    ]
    found = set().union(*(table_model_writes(p) for p in files))
    assert found == TABLE_WRITERS_KNOWN
