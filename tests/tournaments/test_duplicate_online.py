"""Duplicate rounds online (docs/duplicate.md, RULES.md D38): every table of a round deals
the round's seeds, hand by hand, with the same starter; the results store each deal's hand
totals; standings compare the holders of each seat of each deal across the tables; and
while a table of the round still plays, no page shows more of a finished deal than its
seat saw (no other rack, no seed, no review, no watching)."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.engine.state import new_hand
from games.live import actions as table_actions
from games.models import Hand, Table
from games.tournaments import actions, dealing, duplicate_rounds
from games.tournaments import duplicate as scoring
from games.tournaments.models import Deal, TableResult, Tournament, TournamentTable
from tests.support.accounts import logged_in, make_user
from tests.tournaments.conftest import register_accounts

pytestmark = pytest.mark.django_db

PLAYERS = ["ayse", "baran", "cem", "deniz", "elif", "fatma", "gul", "hakan"]


@pytest.fixture(autouse=True)
def known_deals(monkeypatch):
    """The rounds' deal seeds: dup-1, dup-2, … in the order they are drawn."""
    counter = itertools.count(1)
    monkeypatch.setattr(dealing, "seed_source", lambda: f"dup-{next(counter)}")


def duplicate(owner, **values) -> Tournament:
    """An online duplicate classic tournament; the CPUs play every seat at once."""
    return actions.do_create_tournament(
        owner,
        **{
            "name": "Duplicate cup",
            "date": dt.date(2026, 11, 29),
            "variant": "classic",
            "options": {"start_points": 20, "clock": 0},
            "rounds": 2,
            "mode": "online",
            "seed": "dup-seed",
            "arrival_s": 0,
            "format": "duplicate",
            **values,
        },
    )


def play_table(game: Table, limit: int = 20000) -> None:
    """Play one table's game to its end (every seat by its CPU)."""
    later = timezone.now() + timedelta(hours=1)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status == Table.Status.FINISHED:
            return
        assert table_actions.do_play_due(game.pk, at=later), "nothing was due: the table is stuck"
    raise AssertionError("the game did not finish")


def games_of(t: Tournament, round_no: int) -> list[Table]:
    tables = TournamentTable.objects.filter(round__tournament=t, round__number=round_no)
    return [tt.game for tt in tables.select_related("game").order_by("number")]


def expected_matchpoints(t: Tournament, round_no: int) -> dict[str, int]:
    """Matchpoints per entry computed here from the games' stored hands: for each deal
    and seat, 2 per other table's holder beaten, 1 per tie (classic: higher is better)."""
    tables = list(
        TournamentTable.objects.filter(round__tournament=t, round__number=round_no)
        .select_related("game")
        .order_by("number")
    )
    hands = {tt.pk: list(tt.game.hands.order_by("number")) for tt in tables}
    out: dict[str, int] = {}
    for deal in range(t.deals_in_round):
        for seat in range(t.table_size):
            held = [(tt.seats[seat], hands[tt.pk][deal].result["totals"][seat]) for tt in tables]
            for player, mine in held:
                if player is None:
                    continue
                mp = sum(2 if mine > other else 1 if mine == other else 0 for _, other in held)
                out[player] = out.get(player, 0) + mp - 1  # the holder ties with itself
    return out


def test_every_table_of_a_round_plays_the_same_deals_with_the_same_starter(organiser):
    t = duplicate(organiser)
    register_accounts(t, organiser, PLAYERS)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    deals = list(Deal.objects.filter(round=rnd).order_by("number"))
    # one deal per seat by default, each published as its SHA-256 commitment only
    assert [d.seed for d in deals] == ["dup-1", "dup-2", "dup-3", "dup-4"]
    assert all(d.commitment == Hand.commit_to(d.seed) and d.players == 4 for d in deals)
    seated = t.audit.get(action="round_seated").after
    assert seated["commitments"] == [d.commitment for d in deals]
    assert "dup-1" not in str(seated)
    games = games_of(t, 1)
    assert len(games) == 2 and all(g.deals == 4 for g in games)
    for game in games:
        play_table(game)
    for game in games:
        # classic's own end (someone at 0) does not apply: exactly the round's deals
        hands = list(game.hands.order_by("number"))
        assert [h.seed for h in hands] == [d.seed for d in deals]
        assert [h.starter for h in hands] == [0, 1, 2, 3]  # everyone starts once
    # seat i holds the same tiles at every table: the same engine deal
    for number, deal in enumerate(deals):
        first = new_hand("classic", games[0].options, deal.seed, number % 4)
        hands = [g.hands.get(number=number) for g in games]
        assert all(table_actions.game_for(g).hands[number].seed == deal.seed for g in games)
        assert first.racks == new_hand("classic", games[1].options, hands[1].seed, number % 4).racks
    # the results hold each deal's hand totals, as the games' hands do
    for game in games:
        result = TableResult.objects.get(table__game=game)
        assert result.hands == [h.result["totals"] for h in game.hands.order_by("number")]
        assert result.scores == table_actions.game_for(game).totals()


def test_standings_and_the_per_deal_breakdown_come_from_the_stored_hands(organiser):
    t = duplicate(organiser, rounds=1)
    entries = register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    for game in games_of(t, 1):
        play_table(game)
    expected = expected_matchpoints(t, 1)
    rows = actions.standings(t)
    assert {r.player: r.points for r in rows} == expected
    assert {r.player for r in rows} == {e.pid for e in entries}
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert all(rows[i].points >= rows[i + 1].points for i in range(len(rows) - 1))
    assert all(r.played == 1 for r in rows)
    # the same ranks and points as the pure module's standings of the stored holdings
    pure = scoring.standings(
        duplicate_rounds.holdings(t), method="matchpoints", higher_is_better=True
    )
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (r.rank, r.player, r.points) for r in pure
    ]
    # the tournament page shows each deal's holders with their hand totals and points
    t.published = True
    t.save()
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="deal-breakdown"' in page
    lines = re.findall(
        r'data-testid="deal-line" data-round="1" data-deal="(\d)" data-seat="(\d)"', page
    )
    assert len(lines) == 4 * 4
    tables = TournamentTable.objects.filter(round__tournament=t).order_by("number")
    first = tables[0]
    totals = first.game.hands.get(number=0).result["totals"]
    name = next(e.name for e in entries if e.pid == first.seats[0])
    cell = re.search(
        r'data-deal="1" data-seat="0".*?data-testid="deal-holder" data-table="1">(.*?)</td>',
        page,
        re.S,
    )
    assert cell is not None and name in cell.group(1) and str(totals[0]) in cell.group(1)


def test_a_short_round_fills_every_table_to_the_same_size_with_cpus(organiser):
    t = duplicate(organiser, rounds=1, cpu_level="hard")
    register_accounts(t, organiser, PLAYERS[:6])
    rnd = actions.do_seat_next_round(t.pk, organiser)
    tables = list(rnd.tables.order_by("number"))
    assert [len(tt.seats) for tt in tables] == [4, 4]
    assert [tt.seats.count(None) for tt in tables] == [1, 1]
    for tt in tables:
        cpus = tt.game.seats.filter(is_cpu=True)
        assert cpus.count() == 1 and cpus.get().cpu_level == "hard"
    for game in games_of(t, 1):
        play_table(game)
    rows = actions.standings(t)
    # the CPU holders are compared against but never listed
    assert len(rows) == 6 and None not in {r.player for r in rows}
    assert {r.player: r.points for r in rows} == {
        p: v for p, v in expected_matchpoints(t, 1).items()
    }


def test_three_player_tables_only_when_every_table_has_three(organiser):
    t = duplicate(
        organiser,
        rounds=1,
        variant="rummy",
        options={"length": "short", "clock": 0},
        three_player_tables=True,
    )
    register_accounts(t, organiser, PLAYERS[:7])
    rnd = actions.do_seat_next_round(t.pk, organiser)
    assert [len(tt.seats) for tt in rnd.tables.all()] == [3, 3, 3]
    deals = Deal.objects.filter(round=rnd)
    assert deals.count() == 3 and {d.players for d in deals} == {3}
    assert {g.seats.count() for g in games_of(t, 1)} == {3}


def test_the_deals_are_hidden_while_another_table_of_the_round_plays_them(organiser):
    t = duplicate(organiser, rounds=1, deals_per_round=2)
    entries = register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    first, second = games_of(t, 1)
    play_table(first)
    hands = list(first.hands.order_by("number"))
    last = hands[-1]
    player = next(e for e in entries if e.pid == first.tournament_table.seats[0]).user
    me = logged_in(player)
    page = me.get(f"/t/{first.code}/").content.decode()
    assert 'data-testid="racks-withheld"' in page and "outcome-revealed" not in page
    assert last.seed not in page and 'data-testid="review-hand"' not in page
    sheet = me.get(f"/t/{first.code}/sheet/").content.decode()
    assert "dup-1" not in sheet and "dup-2" not in sheet
    assert 'data-testid="seed-withheld"' in sheet
    refused = me.get(f"/review/hand/{last.pk}/")
    assert refused.status_code == 403
    assert "still being played at another table" in refused.content.decode()
    assert me.get(f"/review/game/{first.code}/export/").status_code == 403
    # nobody watches a table of the round meanwhile, not even a finished one
    watcher = logged_in(make_user("watcher"))
    assert watcher.get(f"/t/{first.code}/").status_code == 403
    assert watcher.get(f"/t/{second.code}/").status_code == 403
    assert watcher.get(f"/t/{first.code}/sheet/").status_code == 403
    # and the standings count no deal of a round still being played, nor do the pages
    # show the finished table's scores
    assert all(r.points == 0 and r.played == 0 for r in actions.standings(t))
    mine = next(e for e in entries if e.user == player)
    tournament = me.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="result-concealed"' in tournament
    own = me.get(f"/tournaments/{t.pk}/player/{mine.pk}/").content.decode()
    assert 'data-testid="result-concealed"' in own

    play_table(second)
    page = me.get(f"/t/{first.code}/").content.decode()
    assert "outcome-revealed" in page and last.seed in page
    assert "dup-2" in me.get(f"/t/{first.code}/sheet/").content.decode()
    assert me.get(f"/review/hand/{last.pk}/").status_code == 200
    assert watcher.get(f"/t/{second.code}/").status_code == 200
    assert any(r.points for r in actions.standings(t))


def test_a_standard_tournament_table_shows_its_racks_and_is_watched_as_before(organiser):
    t = duplicate(
        organiser,
        rounds=1,
        format="standard",
        variant="fifty-one",
        options={"hands": 1, "clock": 0},
    )
    register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    first, second = games_of(t, 1)
    assert first.deals is None
    play_table(first)
    assert not dealing.deal_embargoed(first)
    watcher = logged_in(make_user("watcher"))
    assert watcher.get(f"/t/{second.code}/").status_code == 200
    hand = first.hands.order_by("number").last()
    assert hand.seed in watcher.get(f"/t/{first.code}/").content.decode()


def test_a_late_entry_misses_rounds_scored_as_the_rounds_lowest_total(organiser):
    t = duplicate(organiser, rounds=2, deals_per_round=2)
    register_accounts(t, organiser, PLAYERS[:7])
    make_user("ilker")
    late = actions.do_register_entry(t.pk, organiser, username="ilker", joins_round=2)
    actions.do_seat_next_round(t.pk, organiser)
    assert all(late.pid not in tt.seats for tt in TournamentTable.objects.all())
    for game in games_of(t, 1):
        play_table(game)
    round_one = expected_matchpoints(t, 1)
    row = next(r for r in actions.standings(t) if r.player == late.pid)
    assert row.missed == 1 and row.played == 0
    assert row.points == min(round_one.values())


def test_a_withdrawn_players_holdings_still_count_and_they_leave_later_rounds(organiser):
    t = duplicate(organiser, rounds=2, deals_per_round=2)
    entries = register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    gone = entries[0]
    actions.do_drop_entry(t.pk, organiser, gone.pk)  # from round 2 on
    for game in games_of(t, 1):  # their seat is played by their CPU meanwhile
        play_table(game)
    expected = expected_matchpoints(t, 1)
    assert {r.player: r.points for r in actions.standings(t)} == expected
    rnd = actions.do_seat_next_round(t.pk, organiser)
    assert all(gone.pid not in tt.seats for tt in rnd.tables.all())


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"variant": "fifty-one", "options": {"partners": True, "clock": 0}}, "duplicate_partners"),
        ({"deals_per_round": 0}, "bad_deals"),
        ({"deals_per_round": 17}, "bad_deals"),
        ({"duplicate_scoring": "rubber"}, "bad_option"),
        ({"format": "knockout"}, "bad_option"),
    ],
)
def test_bad_duplicate_settings_are_refused(organiser, values, code):
    with pytest.raises(actions.TournamentError) as e:
        duplicate(organiser, **values)
    assert e.value.code == code
    assert not Tournament.objects.exists()


def test_format_scoring_and_deals_are_fixed_once_round_one_is_seated(organiser):
    t = duplicate(organiser)
    register_accounts(t, organiser, PLAYERS[:4])
    actions.do_update_tournament(t.pk, organiser, duplicate_scoring="imps", deals_per_round=3)
    actions.do_seat_next_round(t.pk, organiser)
    for change in (
        {"format": "standard"},
        {"duplicate_scoring": "matchpoints"},
        {"deals_per_round": 2},
    ):
        with pytest.raises(actions.TournamentError) as e:
            actions.do_update_tournament(t.pk, organiser, **change)
        assert e.value.code == "locked_after_start"
    t.refresh_from_db()
    assert (t.format, t.duplicate_scoring, t.deals_per_round) == ("duplicate", "imps", 3)
    assert Deal.objects.filter(round__tournament=t).count() == 3


def test_imps_rank_the_same_stored_hands(organiser):
    t = duplicate(organiser, rounds=1, deals_per_round=2, duplicate_scoring="imps")
    register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    for game in games_of(t, 1):
        play_table(game)
    rows = actions.standings(t)
    assert len(rows) == 8
    # two tables: each seat's two holders get opposite IMPs, so they sum to zero
    assert sum(r.points for r in rows) == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_watchers_socket_is_refused_while_the_round_is_played(organiser):
    """The table page refuses a watcher (above); so does its socket, while a seat's
    socket opens as at any table."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from okeysite.asgi import application

    def seat_round():
        t = duplicate(organiser, rounds=1, deals_per_round=1)
        entries = register_accounts(t, organiser, PLAYERS[:5])
        actions.do_seat_next_round(t.pk, organiser)
        game = games_of(t, 1)[0]
        pid = game.tournament_table.seats[0]
        player = next(e for e in entries if e.pid == pid).user
        return game, logged_in(player)

    game, player = await sync_to_async(seat_round)()
    origin = (b"origin", b"http://testserver")
    watcher = WebsocketCommunicator(application, f"/ws/t/{game.code}/", headers=[origin])
    connected, code = await watcher.connect()
    assert not connected and code == 4404
    cookie = (b"cookie", f"sessionid={player.cookies['sessionid'].value}".encode())
    seat = WebsocketCommunicator(application, f"/ws/t/{game.code}/", headers=[origin, cookie])
    connected, _ = await seat.connect()
    assert connected and 'data-testid="rack"' in await seat.receive_from()
    await seat.disconnect()


def test_the_rounds_last_result_re_renders_every_table_of_the_round(organiser, monkeypatch):
    """Once the last table of the round ends, each table's frames are sent again (a
    presence-style broadcast, the version unchanged): the racks and seeds appear at the
    tables whose players are still looking at their last hand."""
    from games.live import realtime

    shown: list[tuple[int, bool]] = []
    monkeypatch.setattr(
        realtime,
        "broadcast_on_commit",
        lambda table, presence=False: shown.append((table.pk, presence)),
    )
    t = duplicate(organiser, rounds=1, deals_per_round=1)
    register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    first, second = games_of(t, 1)
    play_table(first)
    assert not [pk for pk, presence in shown if presence]
    play_table(second)
    assert sorted(pk for pk, presence in shown if presence) == sorted([first.pk, second.pk])


def test_imps_are_refused_for_a_rule_set_without_an_imp_scale(organiser, monkeypatch):
    """A rule set plugged in later may have no IMP scale yet (``duplicate.IMP_FACTOR``):
    the settings refuse IMPs for it rather than the standings failing later."""
    monkeypatch.setattr(scoring, "IMP_FACTOR", {"rummy": 50})
    with pytest.raises(actions.TournamentError) as e:
        duplicate(organiser, duplicate_scoring="imps")
    assert e.value.code == "imp_scale_unknown"
    assert duplicate(organiser, duplicate_scoring="matchpoints").duplicate


def test_a_result_the_organiser_typed_first_is_kept_and_the_round_ends_with_the_game(
    organiser, monkeypatch
):
    from games.live import realtime

    shown: list[int] = []
    monkeypatch.setattr(
        realtime,
        "broadcast_on_commit",
        lambda table, presence=False: shown.append(table.pk) if presence else None,
    )
    t = duplicate(organiser, rounds=1, deals_per_round=1)
    register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    first, second = games_of(t, 1)
    typed = [[2, -2, 0, 0]]
    actions.do_enter_deal_results(t.pk, organiser, second.tournament_table.pk, typed)
    play_table(first)
    assert dealing.deal_embargoed(first)  # the second game is still being played
    assert shown == []
    play_table(second)
    assert not dealing.deal_embargoed(first)
    assert sorted(shown) == sorted([first.pk, second.pk])
    assert TableResult.objects.get(table__game=second).hands == typed
    assert t.audit.filter(action="game_result_ignored").count() == 1
