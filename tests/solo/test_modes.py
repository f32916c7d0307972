"""Challenge and practice: a challenge run gets no "Show me" and can set a verified record;
a practice run may ask for help and is never a record; rows from before the modes are
kept but unverified, off the public board unless asked for (docs/solo.md)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from games.live import actions, cpu
from games.models import Hand, Table
from games.solo import records
from games.solo.models import SoloResult
from tests.solo.conftest import play_game, play_hand, solo_table
from tests.solo.test_records import make_result
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db


def board_names(client, **params) -> list[tuple[str, int, bool]]:
    """(player, total, marked unverified) per row of the public board."""
    html = client.get(reverse("solo:board"), params).content.decode()
    out = []
    for row in re.findall(r'<tr data-testid="board-row"[^>]*>(.*?)</tr>', html, re.S):
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        total = int(re.search(r"<b>(-?\d+)</b>", cells[2]).group(1))
        out.append((cells[1], total, 'data-testid="board-unverified-mark"' in row))
    return out


def step(table: Table) -> None:
    """One move of whoever is to move (the person's seat plays like an easy CPU)."""
    table.refresh_from_db()
    state = actions.load_state(table.current_hand)
    seat = table.seats.get(position=state.turn)
    action = cpu.choose(state, state.turn, "easy")
    actions.do_submit_action(table.pk, state.turn, action, table.version, by_cpu=seat.is_cpu)


def to_my_next_turn(table: Table) -> None:
    """Play on until seat 0 is to move again, on a later turn than now."""
    state = actions.load_state(Table.objects.get(pk=table.pk).current_hand)
    while state.turn == 0:
        step(table)
        state = actions.load_state(Table.objects.get(pk=table.pk).current_hand)
    while state.turn != 0:
        step(table)
        state = actions.load_state(Table.objects.get(pk=table.pk).current_hand)
    assert state.result is None, "the hand ended before seat 0's next turn"


# ------------------------------------------------------------------ the start form


def test_the_start_form_asks_for_the_mode_and_says_what_each_means(client):
    for url in (reverse("solo:home"), "/"):
        page = client.get(url).content.decode()
        form = page.split('data-testid="solo-start"', 1)[1].split("</form>", 1)[0]
        assert re.search(r'value="challenge" checked data-testid="solo-mode-challenge"', form)
        assert 'value="practice" data-testid="solo-mode-practice"' in form
        assert "No “Show me”" in form and "can set a record" in form
        assert "“Show me” asks the expert CPU for its move" in form and "Never a" in form


def test_the_mode_makes_the_table_competitive_or_not_and_is_remembered(client):
    client.post(reverse("solo:start"), {"level": "easy", "mode": "practice"})
    practice = Table.objects.get()
    assert practice.kind == Table.Kind.SOLO and not practice.competitive
    assert client.session["solo_mode"] == "practice"
    page = client.get(reverse("solo:home")).content.decode()
    assert 'value="practice" checked' in page and 'value="challenge" checked' not in page
    table_page = client.get(reverse("games:table", args=[practice.code])).content.decode()
    assert 'data-testid="show-me"' in table_page  # the person's first turn: help offered

    client.post(reverse("solo:start"), {"level": "easy", "mode": "challenge"})
    challenge = Table.objects.exclude(pk=practice.pk).get()
    assert challenge.competitive and client.session["solo_mode"] == "challenge"
    table_page = client.get(reverse("games:table", args=[challenge.code])).content.decode()
    assert 'data-testid="show-me"' not in table_page and "No engine help" in table_page

    client.post(reverse("solo:start"), {"level": "easy"})  # a form without the field
    assert Table.objects.order_by("-id").first().competitive  # a challenge, never help
    count = Table.objects.count()
    client.post(reverse("solo:start"), {"level": "easy", "mode": "cheat"})
    assert Table.objects.count() == count


# ------------------------------------------------------------------ what counts


def test_a_challenge_refuses_show_me_and_makes_a_verified_record(client, django_user_model):
    ayse = make_user("ayse", "Ayse", public_records=True)
    client.force_login(ayse)
    table = solo_table(user=ayse, competitive=True)
    with pytest.raises(actions.ActionRefused) as refused:
        actions.do_show_hint(table.pk, 0)
    assert refused.value.code == "no_engine_help"
    play_game(table)
    row = SoloResult.objects.get(table=table)
    assert (row.mode, row.verified, row.hints) == ("challenge", True, 0)
    assert records.is_new_record(row) and records.personal_bests(ayse)["easy"] == row
    assert board_names(client) == [("Ayse", row.total, False)]
    page = client.get(reverse("solo:result", args=[table.code])).content.decode()
    assert 'data-testid="solo-mode-tag">Challenge<' in page
    assert 'data-testid="solo-verified"' in page and "New personal record" in page


def test_a_practice_run_with_show_me_is_never_a_record(client, django_user_model):
    ayse = make_user("ayse", "Ayse", public_records=True)
    client.force_login(ayse)
    table = solo_table(user=ayse)
    actions.do_show_hint(table.pk, 0)
    actions.do_show_hint(table.pk, 0)  # the same turn: stored once
    to_my_next_turn(table)
    actions.do_show_hint(table.pk, 0)
    play_game(table)
    row = SoloResult.objects.get(table=table)
    assert (row.mode, row.verified, row.hints) == ("practice", False, 2)
    assert not row.counts_for_records and not records.is_new_record(row)
    assert not SoloResult.objects.records().exists()
    assert records.personal_bests(ayse) == {} and records.unverified_bests(ayse) == {}
    # even a lower total than anyone's: not on the board, not even among the unverified
    make_result(make_user("bora", "Bora", public_records=True), row.total + 1000)
    assert [r[0] for r in board_names(client)] == ["Bora"]
    assert [r[0] for r in board_names(client, unverified="1")] == ["Bora"]

    page = client.get(reverse("solo:result", args=[table.code])).content.decode()
    assert 'data-testid="solo-mode-tag">Practice<' in page
    assert "This was a practice game: it never counts for records." in page
    assert "You asked “Show me” on 2 turns." in page
    assert 'data-testid="solo-verified"' not in page and "New personal record" not in page
    first_hand = page.split('<th scope="row">1</th>', 1)[1].split("</tr>", 1)[0]
    assert re.search(r'data-seat="0"[^>]*>Show me ×2<', first_hand)
    assert 'data-testid="result-hint-total">×2<' in page

    home = client.get(reverse("solo:home")).content.decode()
    history = re.findall(r'<tr data-testid="history-row" data-mode="(\w+)">(.*?)</tr>', home)
    assert [m for m, _row in history] == ["practice"]
    assert "Practice" in history[0][1] and "Show me ×2" in history[0][1]

    rows = list(csv.reader(io.StringIO(client.get(f"/t/{table.code}/sheet.csv").content.decode())))
    totals = {r[1]: r for r in rows if r[0] == "total"}
    assert totals["Ayse"][5:] == ["2", "practice", "no"]
    assert all(r[6:] == ["practice", "no"] for r in rows[1:])


def test_a_stored_challenge_row_with_show_me_use_is_not_verified(client, django_user_model):
    """The server refuses "Show me" in a challenge; should a hand hold a use all the same
    (written past the server), the finished run is not verified."""
    ayse = make_user("ayse", "Ayse", public_records=True)
    table = solo_table(user=ayse, competitive=True)
    Hand.objects.filter(table=table, number=0).update(hints={"0": [0]})
    play_game(table)
    row = SoloResult.objects.get(table=table)
    assert (row.mode, row.verified, row.hints) == ("challenge", False, 1)
    assert row.counts_for_records and not records.is_new_record(row)
    assert not SoloResult.objects.verified().exists()
    assert records.personal_bests(ayse) == {}
    assert records.unverified_bests(ayse) == {"easy": row}  # hers to see, marked
    assert board_names(client) == []
    assert board_names(client, unverified="1") == [("Ayse", row.total, True)]


def test_older_rows_stay_with_their_owner_marked_and_reach_the_board_only_on_request(
    client, django_user_model
):
    ayse = make_user("ayse", "Ayse", public_records=True)
    bora = make_user("bora", "Bora", public_records=True)
    older = make_result(ayse, 500, verified=False, days_ago=30)  # before the modes
    mine = make_result(ayse, 700, days_ago=1)
    bora_older = make_result(bora, 400, verified=False, days_ago=30)
    assert board_names(client) == [("Ayse", 700, False)]
    assert board_names(client, unverified="1") == [("Bora", 400, True), ("Ayse", 500, True)]
    board = client.get(reverse("solo:board"), {"unverified": "1"}).content.decode()
    assert 'data-testid="board-unverified-note"' in board
    assert 'name="unverified" value="1" checked' in board

    assert records.personal_bests(ayse) == {"medium": mine}
    assert not records.is_new_record(older) and records.is_new_record(mine)
    client.force_login(ayse)
    home = client.get(reverse("solo:home")).content.decode()
    assert 'data-testid="best-medium">700<' in home
    older_best = home.split('data-testid="older-best-medium"', 1)[1].split("</tr>", 1)[0]
    assert "500" in older_best and "unverified" in older_best
    history = re.findall(r'<tr data-testid="history-row" data-mode="\w+">(.*?)</tr>', home)
    marked = [row for row in history if 'data-testid="history-unverified"' in row]
    assert len(marked) == 1 and "<b>500</b>" in marked[0]
    Table.objects.filter(pk=older.table_id).update(status=Table.Status.FINISHED)
    page = client.get(reverse("solo:result", args=[older.table.code])).content.decode()
    assert 'data-testid="solo-unverified"' in page and "This record is unverified" in page
    assert bora_older.counts_for_records and not bora_older.verified


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_older_rows_as_unverified_challenges(django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    table = solo_table(user=user)
    executor = MigrationExecutor(connection)
    before = [("solo", "0003_level_expert")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("solo", "SoloResult")
    old.objects.create(
        user_id=user.pk,
        table_id=table.pk,
        variant="seventeen",
        level="medium",
        total=321,
        rounds=7,
        won=True,
        finished_at=timezone.now(),
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    row = SoloResult.objects.get()
    assert (row.total, row.mode, row.verified, row.hints) == (321, "challenge", False, 0)
    assert row.counts_for_records and not SoloResult.objects.verified().exists()


# ------------------------------------------------------------------ the score sheet


def test_the_score_sheet_shows_show_me_use_per_hand_and_seat_of_finished_hands(client):
    table = solo_table()
    actions.do_show_hint(table.pk, 0)
    play_hand(table)
    table.refresh_from_db()
    actions.do_next_hand(table.pk, table.version)
    to_my_next_turn(table)
    actions.do_show_hint(table.pk, 0)  # a hand in play: not on the sheet
    page = client.get(reverse("games:sheet", args=[table.code])).content.decode()
    assert page.count('data-testid="sheet-hints"') == 1
    assert re.search(r'data-testid="sheet-hints" data-seat="0"[^>]*>Show me ×1<', page)
    hint_totals = re.findall(r'data-testid="sheet-hint-total">(.*?)</td>', page)
    assert hint_totals[0] == "×1" and all("–" in t for t in hint_totals[1:])
    assert 'data-testid="sheet-no-help"' not in page


def test_a_sheet_without_show_me_use_shows_no_counts_and_a_challenge_says_no_help(client):
    table = play_game(solo_table(competitive=True), hands=1)
    page = client.get(reverse("games:sheet", args=[table.code])).content.decode()
    assert 'data-testid="sheet-hints"' not in page and "sheet-hint-total" not in page
    assert 'data-testid="sheet-no-help">No engine help<' in page
