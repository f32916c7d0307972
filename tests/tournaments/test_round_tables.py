"""The tournament page stays light however big the tournament: the tables of the latest
round (and of any round with results missing) come with the page and its live pushes;
an older round is its summary line, its tables loaded the first time it is opened
(``views.round_tables``), shown to the same visitors as on the page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.tools.site import heavy
from games.tournaments import actions, exchange, presenter
from games.tournaments.consumers import StandingsConsumer
from games.tournaments.models import Tournament
from tests.tournaments.conftest import enter_all, in_person, register_accounts, register_names

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gül", "Hakan"]


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def _round(html: str, number: int) -> str:
    """The <details> of one round on the page."""
    m = re.search(
        rf'<details class="tn-round"[^>]*data-round="{number}".*?</details>', html, re.DOTALL
    )
    assert m, f"round {number} is not on the page"
    return m.group(0)


def _tables(fragment: str) -> str:
    """The table cards of a round's <details> (or of the on-demand answer), spaces evened."""
    inner = fragment.split('<div class="tn-tables">', 1)[-1]
    if "</details>" in inner:
        inner = inner.rsplit("</div>", 1)[0]
    return " ".join(inner.split())


def test_an_older_round_is_collapsed_and_loads_the_same_tables_on_demand(client, organiser):
    t = in_person(organiser, published=True)
    register_names(t, organiser, NAMES)
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 1)
    page = client.get(url("detail", t.pk)).content.decode()
    before = _tables(_round(page, 1))  # round 1 is the latest: its tables come with the page
    assert before.count('data-testid="round-table"') == 2 and 'data-done="1"' in before

    actions.do_seat_next_round(t.pk, organiser)
    page = client.get(url("detail", t.pk)).content.decode()
    old, latest = _round(page, 1), _round(page, 2)
    assert 'data-loaded="1"' in latest and latest.count('data-testid="round-table"') == 2
    # round 1: its summary line only, the way to load its tables the first time it opens
    assert 'data-loaded="0"' in old and 'data-testid="round-table"' not in old
    assert "Round 1" in old and "complete" in old
    assert f'hx-get="{url("round_tables", t.pk, 1)}"' in old
    assert 'hx-trigger="toggle once"' in old

    answer = client.get(url("round_tables", t.pk, 1))
    assert answer.status_code == 200
    assert _tables(answer.content.decode()) == before


def test_round_tables_answer_whom_the_page_answers(client, organiser, stranger):
    t = in_person(organiser)  # not published
    (mine,) = register_accounts(t, organiser, ["player1"])
    register_names(t, organiser, NAMES[:7])
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 1)
    actions.do_seat_next_round(t.pk, organiser)

    assert client.get(url("round_tables", t.pk, 1)).status_code == 404
    client.force_login(stranger)
    assert client.get(url("round_tables", t.pk, 1)).status_code == 404
    # a player of the unpublished tournament: their own table only, as on the page
    client.force_login(mine.user)
    own = client.get(url("round_tables", t.pk, 1)).content.decode()
    assert own.count('data-testid="round-table"') == 1 and mine.name in own
    # the organiser: every table; a round not seated is not found
    client.force_login(organiser)
    every = client.get(url("round_tables", t.pk, 1)).content.decode()
    assert every.count('data-testid="round-table"') == 2
    assert client.get(url("round_tables", t.pk, 3)).status_code == 404


def test_a_big_tournament_page_and_its_live_push_stay_small(client, organiser):
    """256 players, 30 rounds of 64 tables: the page was 2.2 MB with every round's tables."""
    doc = heavy.tournament_document(exchange.MAX_PLAYERS, 30, "classic", 1)
    t = exchange.do_import_tournament(organiser, doc)
    t.published = True
    t.save(update_fields=["published"])

    page = client.get(url("detail", t.pk)).content.decode()
    assert len(page.encode()) < 300_000
    assert page.count('data-testid="round-table"') == 64  # the latest round's
    assert page.count('data-testid="round"') == 30
    assert page.count('data-testid="standing-row"') == exchange.MAX_PLAYERS
    assert page.count('data-loaded="0"') == 29

    consumer = StandingsConsumer()
    consumer.tournament_id, consumer.scope = t.pk, {"user": AnonymousUser()}
    pushed = consumer.render()
    assert pushed is not None and len(pushed.encode()) < 300_000
    assert pushed.count('data-testid="round-table"') == 64


def _points(html: str) -> dict[str, str]:
    """Each standings row's player and points, as the page shows them."""
    rows = re.findall(
        r'data-player="([^"]+)".*?data-testid="standing-points">([^<]*)<', html, re.DOTALL
    )
    return dict(rows)


def _computed(t) -> dict[str, str]:
    """The ranking computed afresh (no kept copy)."""
    t = Tournament.objects.get(pk=t.pk)
    names = {e.pid: e.name for e in t.entries.all()}
    return {names[r.player]: presenter.fmt_points(r.points) for r in actions.standings(t)}


def test_kept_standings_follow_every_change(client, organiser):
    """The standings are computed once per change of the tournament: a corrected result,
    a late registration and a change of scoring each show on the next view."""
    t = in_person(organiser, published=True, rounds=2)
    register_names(t, organiser, NAMES)
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 1)
    first = _points(client.get(url("detail", t.pk)).content.decode())
    assert first == _computed(t) and len(first) == len(NAMES)

    table = t.round_set.get(number=1).tables.order_by("number").first()
    actions.do_enter_result(t.pk, organiser, table.pk, [0, 10, 4, 2])  # another winner
    second = _points(client.get(url("detail", t.pk)).content.decode())
    assert second != first and second == _computed(t)

    actions.do_register_entry(t.pk, organiser, name="Işık", joins_round=2)
    third = _points(client.get(url("detail", t.pk)).content.decode())
    assert "Işık" in third and third == _computed(t)

    actions.do_update_tournament(t.pk, organiser, scoring="sum")
    fourth = _points(client.get(url("detail", t.pk)).content.decode())
    assert fourth != third and fourth == _computed(t)


def test_an_older_round_with_a_result_missing_comes_with_its_tables(client, organiser):
    doc = heavy.tournament_document(8, 3, "classic", 1)
    t = exchange.do_import_tournament(organiser, doc)
    t.published = True
    t.save(update_fields=["published"])
    t.round_set.get(number=1).tables.get(number=2).result.delete()  # still to be entered

    page = client.get(url("detail", t.pk)).content.decode()
    waiting, complete = _round(page, 1), _round(page, 2)
    assert 'data-loaded="1"' in waiting and "1 of 2 results in" in waiting
    assert waiting.count('data-testid="round-table"') == 2 and 'data-done="0"' in waiting
    assert 'data-loaded="0"' in complete and "complete" in complete
