"""Pages: lobby, create, table (own rack only), join, score sheet, rules."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.engine.rules import RULES
from games.live import actions
from games.models import Table
from tests.games.conftest import cpu_table

pytestmark = pytest.mark.django_db


def test_lobby_offers_every_variant(client):
    html = client.get("/").content.decode()
    for v in RULES:  # every registered rule set, with its options
        assert f'value="{v}"' in html and f'data-variant="{v}"' in html
    assert 'name="fifty-one__doubling"' in html and 'name="classic__start_points"' in html


def test_numeric_options_read_as_numbers_not_on_off():
    from games.forms import CreateTableForm, field_name

    form = CreateTableForm()
    hands = dict(form.fields[field_name("fifty-one", "hands")].choices)
    clock = dict(form.fields[field_name("fifty-one", "clock")].choices)
    assert list(hands.values()) == ["1", "3"]  # 1 == True must not read "on"
    assert str(clock["0"]) == "off" and clock["30"] == "30"


def test_guest_creates_a_table_with_three_cpus(client):
    r = client.post(
        reverse("games:create"),
        {
            "variant": "classic",
            "classic__start_points": "30",
            "seat_1": "cpu:easy",
            "seat_2": "cpu:medium",
            "seat_3": "cpu:hard",
        },
    )
    table = Table.objects.get()
    assert r.status_code == 302 and r.url == reverse("games:table", args=[table.code])
    assert table.options["start_points"] == 30
    assert [s.cpu_level for s in table.seats.all() if s.is_cpu] == ["easy", "medium", "hard"]
    page = client.get(r.url).content.decode()
    rack = re.search(r'id="t-rack".*?</section>', page, re.S).group(0)
    assert len(re.findall(r'data-id="(\d+)"', rack)) == 15


def test_bad_option_is_refused_and_creates_nothing(client):
    client.post(
        reverse("games:create"),
        {
            "variant": "classic",
            "classic__start_points": "25",
            "seat_1": "cpu:easy",
            "seat_2": "cpu:easy",
            "seat_3": "cpu:easy",
        },
    )
    assert Table.objects.count() == 0


def test_table_page_never_shows_other_racks(client):
    table = cpu_table(guest_key="someone-else")
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    state = actions.load_state(table.current_hand)
    shown = {int(x) for x in re.findall(r'data-id="(\d+)"', page)}
    for seat in range(4):
        assert not shown & set(state.racks[seat])
    assert table.current_hand.seed not in page
    assert not shown & set(state.pile)


def test_forged_table_code_is_404(client):
    assert client.get("/t/forged/").status_code == 404
    assert client.get("/t/forged/sheet/").status_code == 404


def test_friend_joins_an_invite_table(client):
    host = User.objects.create_user("host", password="pw-Host-123")
    table = actions.do_create_table(
        variant="rummy",
        options={"players": 2},
        seats=[actions.SeatSpec("me"), actions.SeatSpec("human")],
        user=host,
    )
    assert table.status == Table.Status.WAITING
    r = client.post(reverse("games:join", args=[table.code]))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_score_sheet_renders(client):
    table = cpu_table()
    r = client.get(reverse("games:sheet", args=[table.code]))
    assert r.status_code == 200 and b"score-sheet" in r.content


@pytest.mark.parametrize("slug", [rules.rules_page for rules in RULES.values()])
def test_rules_pages(client, slug):
    r = client.get(reverse("games:rules_page", args=[slug]))
    assert r.status_code == 200
    assert b"<h1" in r.content or b"<h2" in r.content


def test_unknown_rules_page_is_404(client):
    assert client.get("/rules/nope").status_code == 404


def test_host_fills_free_seats_with_cpus_and_others_cannot(client):
    host = User.objects.create_user("host2", password="pw-Host-123")
    table = actions.do_create_table(
        variant="seventeen",
        options={},
        seats=[
            actions.SeatSpec("me"),
            actions.SeatSpec("human"),
            actions.SeatSpec("human"),
            actions.SeatSpec("human"),
        ],
        user=host,
    )
    # a stranger cannot
    client.post(reverse("games:fill", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    client.force_login(host)
    client.post(reverse("games:fill", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert [s.is_cpu for s in table.seats.all()] == [False, True, True, True]


def test_every_seat_sees_which_discard_a_player_took():
    """Taking a discard is public at a real table: the other seats' felt shows it
    (the engine view's ``took`` log), by face only, no tile id."""
    from django.utils import translation

    from games.engine import notation
    from games.live import presenter, realtime

    keys = ["g0", "g1", "g2", "g3"]
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        guest_key=keys[0],
    )
    for key in keys[1:]:
        actions.do_join_table(table.pk, guest_key=key)
    table.refresh_from_db()
    state = actions.load_state(table.current_hand)
    starter, taker = state.turn, (state.turn + 1) % 4
    tile = state.racks[starter][0]
    actions.do_submit_action(table.pk, starter, {"type": "discard", "tile": tile}, table.version)
    table.refresh_from_db()
    actions.do_submit_action(table.pk, taker, {"type": "take"}, table.version)
    table.refresh_from_db()
    viewer = table.seats.get(position=(taker + 2) % 4)
    with translation.override("en"):
        ctx = presenter.table_context(table, viewer)
        html, _keys = realtime.live_frame(ctx, None, "en")
    took = re.search(rf'data-testid="took-{taker}".*?</div>', html, re.S)
    assert took is not None, html
    assert f'data-t="{notation(tile)}"' in took.group(0) and "data-id" not in took.group(0)


@pytest.mark.parametrize(
    ("variant", "lays_down"), [(name, not rules.whole_rack) for name, rules in RULES.items()]
)
def test_only_lay_down_tables_say_the_table_has_no_melds_yet(client, variant, lays_down):
    """Melds lie on the table only in the lay-down rule sets (fifty-one, seventeen, 101:
    RULES.md §4-§6): the empty felt says so there, and says nothing of melds in classic and
    rummy."""
    table = cpu_table(variant)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert ("No melds on the table yet." in page) is lays_down
