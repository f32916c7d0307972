"""Red team: nothing of a duplicate deal leaves the server while another table of the
round still plays it (RULES.md D38, docs/duplicate.md "Seeds: committed, then revealed").

One online round of two tables and two deals: table A has played both deals, table B has
not started. Every page, frame, file and API answer that anyone could ask for (a player of
A, a player of B, a stranger, a visitor without an account, the organiser) is read, and
none may hold a deal's seed or the racks of the other seats of A's finished hands (the
outcome's "All racks"). Once B has played too, the same reads show them: the checks look
where the secrets would be.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.live import actions as table_actions
from games.live import presenter, realtime
from games.models import Table
from games.tournaments import actions, dealing, exchange
from games.tournaments.models import Deal, Tournament, TournamentTable
from tests.api.conftest import api_as
from tests.support.accounts import logged_in, make_user
from tests.tournaments.test_duplicate_online import duplicate

pytestmark = pytest.mark.django_db

PLAYERS = ["ayse", "baran", "cem", "deniz", "elif", "fatma", "gul", "hakan"]
SEEDS = ["dup-1", "dup-2"]


@pytest.fixture(autouse=True)
def known_deals(monkeypatch):
    counter = itertools.count(1)
    monkeypatch.setattr(dealing, "seed_source", lambda: f"dup-{next(counter)}")


def play_table(game: Table) -> None:
    later = timezone.now() + timedelta(hours=1)
    for _ in range(20000):
        game.refresh_from_db()
        if game.status == Table.Status.FINISHED:
            return
        assert table_actions.do_play_due(game.pk, at=later), "the table is stuck"
    raise AssertionError("the game did not finish")


def leaks(text: str) -> list[str]:
    """What of a deal a text gives away: a seed, or the outcome's other racks."""
    found = [s for s in SEEDS if s in text]
    if "outcome-revealed" in text or 'data-testid="revealed-seed"' in text:
        found.append("all racks")
    return found


class Round:
    """The round in the middle: A has played both deals, B neither."""

    def __init__(self, organiser) -> None:
        for name in PLAYERS:  # their records public: anyone may open their Insights
            make_user(name, public_records=True)
        self.t = duplicate(organiser, rounds=1, deals_per_round=2, published=True)
        self.entries = [
            actions.do_register_entry(self.t.pk, organiser, username=u) for u in PLAYERS
        ]
        actions.do_seat_next_round(self.t.pk, organiser)
        tables = TournamentTable.objects.filter(round__tournament=self.t).order_by("number")
        self.tt_a, self.tt_b = list(tables)
        self.a, self.b = self.tt_a.game, self.tt_b.game
        play_table(self.a)
        self.hands = list(self.a.hands.order_by("number"))
        by_pid = {e.pid: e.user for e in self.entries}
        self.player_a = by_pid[self.tt_a.seats[0]]
        self.player_b = by_pid[self.tt_b.seats[0]]
        self.organiser = organiser

    def finish(self) -> None:
        play_table(self.b)


@pytest.fixture
def rnd(organiser) -> Round:
    r = Round(organiser)
    assert dealing.deal_embargoed(r.a) and [h.seed for h in r.hands] == SEEDS
    return r


def body(response) -> str:
    return response.content.decode()


# ------------------------------------------------------------- a player of table A


def test_the_table_page_and_its_frame_at_the_hands_end_show_no_other_rack(rnd):
    me = logged_in(rnd.player_a)
    page = me.get(f"/t/{rnd.a.code}/")
    assert page.status_code == 200 and 'data-testid="racks-withheld"' in body(page)
    assert leaks(body(page)) == []
    seat = rnd.a.seats.get(user=rnd.player_a)
    ctx = presenter.table_context(Table.objects.get(pk=rnd.a.pk), seat)
    frame, _keys = realtime.live_frame(ctx, None, "en")
    assert 'data-testid="racks-withheld"' in frame and leaks(frame) == []
    # the review link of the outcome dialog is not offered either
    assert 'data-testid="review-hand"' not in body(page) + frame


def test_the_outcome_is_sent_again_with_the_racks_once_the_round_is_over(rnd):
    """The round's last table ends without A's version moving: A's players are still
    looking at their last hand, and the next frame must bring its racks and seed."""
    seat = rnd.a.seats.get(user=rnd.player_a)
    ctx = presenter.table_context(Table.objects.get(pk=rnd.a.pk), seat)
    _frame, sent = realtime.live_frame(ctx, None, "en")
    rnd.finish()
    after = presenter.table_context(Table.objects.get(pk=rnd.a.pk), seat)
    frame, _keys = realtime.live_frame(after, sent, "en")
    assert "outcome-revealed" in frame and SEEDS[1] in frame


def test_the_score_sheet_and_its_csv_hold_no_seed(rnd):
    me = logged_in(rnd.player_a)
    sheet = me.get(f"/t/{rnd.a.code}/sheet/")
    assert sheet.status_code == 200 and leaks(body(sheet)) == []
    assert body(sheet).count('data-testid="seed-withheld"') == 2
    own_csv = me.get(f"/t/{rnd.a.code}/sheet.csv")
    assert own_csv.status_code == 200 and leaks(body(own_csv)) == []


def test_every_review_path_of_the_finished_hands_is_refused(rnd):
    me = logged_in(rnd.player_a)
    for hand in rnd.hands:
        for path in ("", "par/", "commentary/", "analysis/", "export/"):
            r = me.get(f"/review/hand/{hand.pk}/{path}")
            assert r.status_code == 403, path
            assert leaks(body(r)) == []
    assert me.get(f"/review/game/{rnd.a.code}/export/").status_code == 403
    for path in (f"/review/game/{rnd.a.code}/", "/games/"):
        r = me.get(path)
        assert r.status_code == 200 and leaks(body(r)) == []


def test_a_share_link_shows_nothing_until_the_round_is_over(rnd):
    me = logged_in(rnd.player_a)
    me.post(f"/review/game/{rnd.a.code}/share/")
    link = rnd.a.share_links.get()
    for path in ("", "hand/1/", "hand/2/", "hand/1/par/", "hand/1/analysis/", "export/"):
        r = Client().get(f"/review/s/{link.token}/{path}")
        assert r.status_code == 403, path
        assert leaks(body(r)) == []
    rnd.finish()
    assert Client().get(f"/review/s/{link.token}/hand/2/").status_code == 200


def test_the_api_gives_a_player_of_table_a_no_other_rack_and_no_record(rnd):
    api = api_as(rnd.player_a)
    seat = api.get(f"/api/v1/tables/{rnd.a.code}")
    assert seat.status_code == 200
    revealed = seat.json()["view"]["revealed"]
    finisher = seat.json()["view"]["result"]["finisher"]
    assert revealed["seed"] is None
    assert [i for i, rack in enumerate(revealed["racks"]) if rack] in ([], [finisher])
    assert leaks(body(seat)) == []
    assert api.get(f"/api/v1/games/{rnd.a.code}/record").status_code == 403
    assert api.get(f"/api/v1/games/{rnd.a.code}/hands/1/record").status_code == 403
    games = api.get(f"/api/v1/players/{rnd.player_a.username}/games")
    assert rnd.a.code not in body(games) and leaks(body(games)) == []


# ------------------------------------------------ a player of table B, anyone else


def test_table_a_is_closed_to_everyone_who_did_not_play_there(rnd):
    for client in (logged_in(rnd.player_b), logged_in(make_user("stranger")), Client()):
        for path in (f"/t/{rnd.a.code}/", f"/t/{rnd.a.code}/sheet/", f"/t/{rnd.a.code}/sheet.csv"):
            r = client.get(path)
            assert r.status_code == 403, path
            assert leaks(body(r)) == []
        for hand in rnd.hands:
            assert client.get(f"/review/hand/{hand.pk}/").status_code == 404


def test_the_sheet_csv_of_table_a_holds_no_score_for_a_stranger_until_the_round_ends(rnd):
    stranger = Client()
    assert stranger.get(f"/t/{rnd.a.code}/sheet.csv").status_code == 403
    rnd.finish()
    rows = list(csv.reader(io.StringIO(body(stranger.get(f"/t/{rnd.a.code}/sheet.csv")))))
    assert len(rows) > 1


def test_the_tournament_pages_and_files_show_no_seed_and_no_score_of_the_round(rnd):
    visitor = logged_in(rnd.player_b)
    t = rnd.t
    a_entry = next(e for e in rnd.entries if e.user == rnd.player_a)
    paths = [
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/player/{a_entry.pk}/",
        f"/tournaments/{t.pk}/matrix/",
        f"/tournaments/{t.pk}/standings/print/",
        f"/tournaments/{t.pk}/standings.csv",
        f"/tournaments/{t.pk}/results.csv",
    ]
    for path in paths:
        r = visitor.get(path)
        assert r.status_code == 200, path
        assert leaks(body(r)) == [], path
    # the commitments are public from the start, the seeds are not
    page = body(visitor.get(f"/tournaments/{t.pk}/"))
    commitments = list(
        Deal.objects.filter(round__tournament=t).values_list("commitment", flat=True)
    )
    assert all(c in page for c in commitments) and 'data-testid="deal-seed"' not in page
    # results.csv lists no table of the round yet (A's scores are its deals' totals)
    rows = list(csv.DictReader(io.StringIO(body(visitor.get(f"/tournaments/{t.pk}/results.csv")))))
    assert rows == []
    # the round's deals page and the (in-person only) deal cards are not there
    assert visitor.get(f"/tournaments/{t.pk}/rounds/1/deals/").status_code == 404
    assert visitor.get(f"/tournaments/{t.pk}/rounds/1/deal-cards/").status_code == 404
    # organiser-only files and pages
    assert visitor.get(f"/tournaments/{t.pk}/export.json").status_code in (403, 404)
    assert visitor.get(f"/tournaments/{t.pk}/audit/").status_code in (403, 404)

    rnd.finish()
    rows = list(csv.DictReader(io.StringIO(body(visitor.get(f"/tournaments/{t.pk}/results.csv")))))
    assert {r["table"] for r in rows} == {"1", "2"}
    page = body(visitor.get(f"/tournaments/{t.pk}/"))
    assert all(s in page for s in SEEDS)


def test_the_tournament_socket_renders_no_seed(rnd):
    from django.template.loader import render_to_string

    from games.tournaments.presenter import page_context

    html = render_to_string("tournaments/detail.html#live", page_context(rnd.t, rnd.player_b))
    assert leaks(html) == [] and 'data-testid="result-concealed"' in html


def test_the_organisers_file_and_log_keep_the_seeds_back_while_the_round_is_played(rnd):
    """An organiser may play in their own online tournament: the file they export holds
    the round's commitments but not its seeds until the round is over, and the audit log
    has only the commitments."""
    org = logged_in(rnd.organiser)
    exported = org.get(f"/tournaments/{rnd.t.pk}/export.json")
    assert exported.status_code == 200 and leaks(body(exported)) == []
    deals = json.loads(body(exported))["rounds"][0]["deals"]
    assert [d["seed"] for d in deals] == [None, None]
    assert all(d["commitment"] for d in deals)
    audit = org.get(f"/tournaments/{rnd.t.pk}/audit/")
    assert audit.status_code == 200 and leaks(body(audit)) == []
    desk = org.get(f"/tournaments/{rnd.t.pk}/desk/")
    assert desk.status_code == 200 and leaks(body(desk)) == []
    # such a file is refused by an import (its deals could not be dealt again)
    with pytest.raises(exchange.ImportRefused) as e:
        exchange.do_import_tournament(rnd.organiser, json.loads(body(exported)))
    assert "kept back" in e.value.message
    rnd.finish()
    deals = json.loads(body(org.get(f"/tournaments/{rnd.t.pk}/export.json")))["rounds"][0]["deals"]
    assert [d["seed"] for d in deals] == SEEDS


def test_the_lobby_the_verify_page_insights_and_the_api_show_nothing_of_the_deal(rnd):
    visitor = logged_in(make_user("stranger"))
    deal = Deal.objects.get(round__tournament=rnd.t, number=1)
    paths = [
        "/",
        f"/verify/?commitment={deal.commitment}&players=4&starter=0&variant=classic",
        f"/players/{rnd.player_a.username}/insights/classic/",
    ]
    for path in paths:
        r = visitor.get(path)
        assert r.status_code == 200, path
        assert leaks(body(r)) == [], path
    assert rnd.a.code not in body(visitor.get("/")) and rnd.b.code not in body(visitor.get("/"))
    own = logged_in(rnd.player_a).get(f"/players/{rnd.player_a.username}/insights/classic/")
    assert own.status_code == 200 and leaks(body(own)) == []
    api = api_as(make_user("robot"))
    for path in ("/api/v1/tables/live", f"/api/v1/tournaments/{rnd.t.pk}"):
        r = api.get(path)
        assert r.status_code == 200, path
        assert leaks(body(r)) == [], path
    results = api.get(f"/api/v1/tournaments/{rnd.t.pk}").json()["results"]
    assert all(
        table["concealed"] and all(s["score"] is None for s in table["seats"])
        for r in results
        for table in r["tables"]
    )
    assert api.get(f"/api/v1/tables/{rnd.a.code}").status_code == 404
    assert api.get(f"/api/v1/games/{rnd.a.code}/record").status_code == 404


def test_an_in_person_rounds_file_keeps_its_seeds(organiser):
    """In person the organiser deals from the cards: the file keeps the seeds (a backup
    taken mid-round prints the same cards again)."""
    t = duplicate(organiser, rounds=1, deals_per_round=2)
    for name in PLAYERS[:4]:
        make_user(name)
        actions.do_register_entry(t.pk, organiser, username=name)
    actions.do_seat_next_round(t.pk, organiser)
    Tournament.objects.filter(pk=t.pk).update(mode="in_person")
    t.refresh_from_db()
    deals = exchange.export_tournament(t)["rounds"][0]["deals"]
    assert [d["seed"] for d in deals] == SEEDS


def test_every_holder_of_a_seat_gets_the_same_par(rnd):
    """A par is the expert's play from the deal (docs/par.md): each duplicate hand is dealt
    as a game's first with the round's seed and starter (RULES.md D38), so the holders of
    one seat of one deal at every table are measured against the same par."""
    from games.engine.par import par_of_record
    from games.review.replay import record_for_hand

    rnd.finish()
    for number in range(2):
        records = [record_for_hand(g.hands.get(number=number)) for g in (rnd.a, rnd.b)]
        start = [(r["seed"], r["starter"], r["options"], r.get("context")) for r in records]
        assert start[0] == start[1] and start[0][0] == SEEDS[number]
        seat = number  # the deal's starter at one deal, another seat at the other
        pars = [par_of_record(r, seat)[0] for r in records]
        assert pars[0]["par"] == pars[1]["par"] and pars[0]["actions"] == pars[1]["actions"]


# ------------------------------------------------------------- scores through the pages


def test_imps_of_a_hand_made_101_round_with_a_cpu_seat_a_late_entry_and_a_withdrawal(
    organiser,
):
    """docs/duplicate.md's three-table IMP example typed by an organiser (101, lower is
    better): the holders of one seat made -101, 118 and 202, every other seat the same
    total at every table. Eleven players, so one table has a CPU seat (compared against,
    never listed); a late entry's missed round counts as that round's lowest total; a
    player who withdraws after round 1 keeps its IMPs."""
    from tests.tournaments.conftest import in_person

    t = in_person(
        organiser,
        variant="101",
        options={},
        format="duplicate",
        duplicate_scoring="imps",
        deals_per_round=1,
        rounds=2,
        published=True,
    )
    names = [f"P{i:02d}" for i in range(11)]
    entries = [actions.do_register_entry(t.pk, organiser, name=n) for n in names]
    late = actions.do_register_entry(t.pk, organiser, name="Late", joins_round=2)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    tables = list(rnd.tables.order_by("number"))
    assert sum(tt.seats.count(None) for tt in tables) == 1
    focus = next(s for s in range(4) if all(tt.seats[s] is not None for tt in tables))
    other = {s: [0, 21, 35, 48][s] for s in range(4)}
    focus_totals = [-101, 118, 202]
    for tt, mine in zip(tables, focus_totals, strict=True):
        line = [mine if s == focus else other[s] for s in range(4)]
        actions.do_enter_deal_results(t.pk, organiser, tt.pk, [line])
    gone = next(e for e in entries if e.pid == tables[0].seats[(focus + 1) % 4])
    actions.do_drop_entry(t.pk, organiser, gone.pk)

    client = Client()
    deals = body(client.get(f"/tournaments/{t.pk}/rounds/1/deals/"))
    for number, imps in zip((1, 2, 3), ("11", "-4", "-9"), strict=True):
        cell = deals.split(f'data-deal="1" data-seat="{focus}"', 1)[1]
        cell = cell.split(f'data-testid="deal-holder" data-table="{number}"', 1)[1]
        assert f"({imps})" in cell.split("</td>", 1)[0]

    def standings() -> dict[str, dict[str, str]]:
        rows = csv.DictReader(io.StringIO(body(client.get(f"/tournaments/{t.pk}/standings.csv"))))
        return {r["player"]: r for r in rows}

    rows = standings()
    assert "CPU" not in rows and len(rows) == 12
    holders = [tt.seats[focus] for tt in tables]
    by_pid = {e.pid: e.name for e in [*entries, late]}
    assert [rows[by_pid[p]]["points"] for p in holders] == ["11", "-4", "-9"]
    assert rows["Late"]["points"] == "-9" and rows["Late"]["played"] == "0"
    assert rows[gone.name]["points"] == "0" and rows[gone.name]["played"] == "1"
    assert rows[by_pid[holders[0]]]["rank"] == "1"
    assert {rows[by_pid[p]]["rank"] for p in holders[2:]} == {"11"}  # shared with Late

    # round 2: the withdrawn player is not seated, the late entry is
    rnd = actions.do_seat_next_round(t.pk, organiser)
    seated = {p for tt in rnd.tables.all() for p in tt.seats}
    assert gone.pid not in seated and late.pid in seated


def test_insights_add_the_duplicate_hands_to_the_casual_ones_once_the_round_is_over(rnd):
    """A player of table A also plays a casual game: their Insights count its hands at
    once and the round's hands only after the round (RULES.md D38); the mean result is
    the mean of the seat's hand totals over both games."""
    from games.insights.figures import Filters, figures

    player = rnd.player_a
    casual = table_actions.do_seat_players(
        variant="classic",
        options={"start_points": 20, "clock": 0},
        seats=[table_actions.SeatSpec("player", user=player, name="Ayşe")]
        + [table_actions.SeatSpec("cpu", "medium")] * 3,
        away_since=timezone.now() - timedelta(hours=1),
    )
    later = timezone.now() + timedelta(hours=1)
    while not casual.hands.filter(result__isnull=False).exists():
        assert table_actions.do_play_due(casual.pk, at=later)
    casual_hands = list(casual.hands.filter(result__isnull=False))
    dup_seat = rnd.a.seats.get(user=player).position
    totals = [h.result["totals"][0] for h in casual_hands]

    def shown() -> dict:
        return figures(player, "classic", Filters(), timezone.now())

    assert shown()["hands"] == len(casual_hands)
    page = body(logged_in(player).get(f"/players/{player.username}/insights/classic/"))
    assert f"{len(casual_hands)} hand" in page
    rnd.finish()
    logged_in(player).get(f"/players/{player.username}/insights/classic/")  # releases them
    totals += [h.result["totals"][dup_seat] for h in rnd.hands]
    f = shown()
    assert f["hands"] == len(casual_hands) + 2
    assert f["mean_total"] == round(sum(totals) / len(totals), 2)


def desk_row(desk: str, number: int) -> str:
    row = desk.split(f'data-testid="desk-table" data-round="1" data-table="{number}"', 1)[1]
    return row.split("</tr>", 1)[0]


def test_an_organiser_who_plays_sees_the_rounds_scores_when_everyone_does(organiser):
    """An organiser may play in their own online duplicate tournament: while the round is
    played, the desk, the result form and the audit log keep the other tables' scores
    from them (and the file its seeds), as the public pages do."""
    import re

    t = duplicate(organiser, rounds=1, deals_per_round=1)
    actions.do_register_entry(t.pk, organiser, username=organiser.username)
    for name in PLAYERS[:7]:
        make_user(name)
        actions.do_register_entry(t.pk, organiser, username=name)
    actions.do_seat_next_round(t.pk, organiser)
    tables = list(TournamentTable.objects.filter(round__tournament=t).order_by("number"))
    me = next(e for e in t.entries.all() if e.user_id == organiser.pk)
    mine, other = sorted(tables, key=lambda tt: me.pid not in tt.seats)
    play_table(other.game)
    other.refresh_from_db()
    scores = other.result.scores
    org = logged_in(organiser)
    row = desk_row(body(org.get(f"/tournaments/{t.pk}/desk/")), other.number)
    assert 'data-testid="result-concealed"' in row
    assert re.findall(r"<b>-?\d+</b>", row) == [f"<b>{other.number}</b>"]
    assert 'data-testid="enter-result"' not in row
    refused = org.get(f"/tournaments/{t.pk}/tables/{other.pk}/result/")
    assert refused.status_code == 403 and "You play in this round" in body(refused)
    audit = body(org.get(f"/tournaments/{t.pk}/audit/"))
    assert 'data-testid="audit-withheld"' in audit and json.dumps(scores) not in audit

    play_table(mine.game)
    row = desk_row(body(org.get(f"/tournaments/{t.pk}/desk/")), other.number)
    assert 'data-testid="result-concealed"' not in row
    assert sorted(re.findall(r"<b>(-?\d+)</b>", row)[1:]) == sorted(str(s) for s in scores)
    assert org.get(f"/tournaments/{t.pk}/tables/{other.pk}/result/").status_code == 200
    audit = body(org.get(f"/tournaments/{t.pk}/audit/"))
    assert 'data-testid="audit-withheld"' not in audit and json.dumps(scores) in audit


def test_an_organiser_who_does_not_play_sees_every_result_on_the_desk(rnd):
    org = logged_in(rnd.organiser)
    row = desk_row(body(org.get(f"/tournaments/{rnd.t.pk}/desk/")), rnd.tt_a.number)
    assert 'data-testid="result-concealed"' not in row
    assert org.get(f"/tournaments/{rnd.t.pk}/tables/{rnd.tt_a.pk}/result/").status_code == 200
