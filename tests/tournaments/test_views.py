"""The pages: who sees what (publish flag, players, organisers), the desk's forms,
the phone-sized result form with translated problems, cards and history."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.tournaments import actions
from games.tournaments.messages import RESULT_PROBLEMS
from games.tournaments.models import Entry, TableResult, Tournament, TournamentTable
from tests.tournaments.conftest import (
    CLASSIC_OK,
    in_person,
    make_user,
    online,
    register_accounts,
    register_names,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma"]


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


@pytest.fixture
def running(organiser):
    """An in-person tournament with round 1 seated (6 names + 2 CPU seats)."""
    t = in_person(organiser)
    register_names(t, organiser, NAMES)
    actions.do_seat_next_round(t.pk, organiser)
    return t


def test_create_a_tournament_through_the_form(client, organiser):
    client.force_login(organiser)
    assert client.get(url("create")).status_code == 200
    response = client.post(
        url("create"),
        {
            "name": "Friday okey",
            "date": "2026-12-04",
            "variant": "rummy",
            "rummy__length": "short",
            "rummy__clock": "0",
            "rummy__assisted": "0",
            "rounds": "4",
            "mode": "in_person",
            "scoring": "placing",
            "placing_points": "5 3 1 0",
            "seating": "swiss",
            "three_player_tables": "on",
            "arrival_s": "60",
            "seed": "",
        },
    )
    t = Tournament.objects.get(name="Friday okey")
    assert response.status_code == 302 and response["Location"] == url("desk", t.pk)
    assert t.owner == organiser and t.variant == "rummy" and t.options["length"] == "short"
    assert t.placing_points == [5, 3, 1, 0] and t.three_player_tables and not t.published
    assert len(t.seed) == 16  # a random published seed when none is given
    assert client.get(url("desk", t.pk)).status_code == 200


def test_anonymous_visitors_are_sent_to_log_in_to_create(client):
    response = client.get(url("create"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_unpublished_tournament_is_404_for_the_public(client, running, stranger):
    for name, args in [
        ("detail", ()),
        ("standings_csv", ()),
        ("results_csv", ()),
        ("standings_print", ()),
        ("matrix", ()),
        ("desk", ()),
        ("export_json", ()),
    ]:
        assert client.get(url(name, running.pk, *args)).status_code == 404
    client.force_login(stranger)
    assert client.get(url("detail", running.pk)).status_code == 404
    assert client.post(url("seat", running.pk)).status_code == 404


def test_published_tournament_is_public_but_only_organisers_change_it(
    client, running, organiser, stranger
):
    actions.do_update_tournament(running.pk, organiser, published=True)
    page = client.get(url("detail", running.pk))
    assert page.status_code == 200
    assert page.context["standings"] and "Ayşe" in page.content.decode()
    assert client.get(url("standings_csv", running.pk)).status_code == 200
    client.force_login(stranger)
    entry = running.entries.first()
    table = TournamentTable.objects.filter(round__tournament=running).first()
    forbidden = [
        ("get", url("desk", running.pk), {}),
        ("get", url("audit", running.pk), {}),
        ("get", url("export_json", running.pk), {}),
        ("get", url("cards", running.pk, 1), {}),
        ("get", url("result", running.pk, table.pk), {}),
        ("post", url("result", running.pk, table.pk), {"seat_0": "10"}),
        ("post", url("seat", running.pk), {}),
        ("post", url("edit", running.pk), {"name": "Taken over"}),
        ("post", url("entry_add", running.pk), {"name": "Intruder"}),
        ("post", url("entry_drop", running.pk, entry.pk), {}),
        ("post", url("entry_no_show", running.pk, entry.pk), {"round": "2"}),
        ("post", url("organiser_add", running.pk), {"username": "stranger"}),
    ]
    for method, target, data in forbidden:
        response = getattr(client, method)(target, data)
        assert response.status_code == 403, (method, target)
    assert running.entries.count() == 6 and not TableResult.objects.exists()
    assert not running.organisers.exists()


def test_forged_ids_from_another_tournament_are_404(client, running, organiser):
    other_owner = make_user("other")
    other = in_person(other_owner)
    (theirs,) = register_names(other, other_owner, ["Theirs"])
    mine = in_person(organiser, name="Mine")
    client.force_login(organiser)
    assert client.post(url("entry_drop", mine.pk, theirs.pk)).status_code == 404
    table = TournamentTable.objects.filter(round__tournament=running).first()
    assert client.get(url("result", mine.pk, table.pk)).status_code == 404
    assert client.get(url("player", mine.pk, theirs.pk)).status_code == 404
    theirs.refresh_from_db()
    assert theirs.dropped_from_round is None


@pytest.mark.slow
def test_players_of_an_unpublished_tournament_see_only_their_own_seat(client, organiser):
    t = online(organiser, arrival_s=600)
    entries = register_accounts(t, organiser, ["ayse", "baran", "cem", "deniz", "elif"])
    actions.do_seat_next_round(t.pk, organiser)
    me = entries[0]
    client.force_login(me.user)
    page = client.get(url("detail", t.pk))
    assert page.status_code == 200
    ctx = page.context
    assert ctx["standings"] == [] and not ctx["full"]
    tables = [table for rnd in ctx["rounds"] for table in rnd["tables"]]
    assert len(tables) == 1 and me.pid in tables[0]["table"].seats
    (mine,) = ctx["my_tables"]
    assert mine["game"] is not None
    assert reverse("games:table", args=[mine["game"].code]) in page.content.decode()
    assert client.get(url("player", t.pk, me.pk)).status_code == 200
    assert client.get(url("player", t.pk, entries[1].pk)).status_code == 404
    assert client.get(url("standings_csv", t.pk)).status_code == 404


def test_result_form_refuses_impossible_scores_with_translated_reasons(client, running, organiser):
    client.force_login(organiser)
    table = TournamentTable.objects.filter(round__tournament=running).order_by("number").first()
    target = url("result", running.pk, table.pk)
    assert client.get(target).status_code == 200
    bad = {"seat_0": "11", "seat_1": "4", "seat_2": "0", "seat_3": "2"}
    response = client.post(target, bad)
    assert response.status_code == 400
    html = response.content.decode()
    assert str(RESULT_PROBLEMS["above_start"]) in html
    assert 'data-code="above_start"' in html
    assert not TableResult.objects.exists()
    with translation.override("de"):
        response = client.post(target, bad, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400 and 'data-code="above_start"' in response.content.decode()
    ok = {f"seat_{i}": str(v) for i, v in enumerate(CLASSIC_OK[0])}
    response = client.post(target, ok)
    assert response.status_code == 302
    assert TableResult.objects.get(table=table).scores == CLASSIC_OK[0]
    audit = client.get(url("audit", running.pk)).content.decode()
    assert "Result entered · round 1, table 1" in audit


def test_desk_registers_players_and_seats_rounds(client, organiser):
    t = in_person(organiser)
    client.force_login(organiser)
    for name in NAMES[:5]:
        client.post(url("entry_add", t.pk), {"name": name})
    make_user("gul")
    client.post(url("entry_add", t.pk), {"username": "gul"})
    assert [e.name for e in t.entries.all()] == NAMES[:5] + ["gul"]
    response = client.post(url("seat", t.pk), follow=True)
    assert "Round 1 is seated." in response.content.decode()
    assert t.round_set.count() == 1
    # round 1 unfinished: the desk refuses round 2 with the reason
    response = client.post(url("seat", t.pk), follow=True)
    assert "Round 1 still has tables without a result." in response.content.decode()
    assert t.round_set.count() == 1
    entry = Entry.objects.get(tournament=t, name="Cem")
    client.post(url("entry_no_show", t.pk, entry.pk), {"round": "2"})
    entry.refresh_from_db()
    assert entry.no_shows == [2]
    client.post(url("entry_drop", t.pk, entry.pk), {"round": "3"})
    entry.refresh_from_db()
    assert entry.dropped_from_round == 3
    audit = client.get(url("audit", t.pk))
    assert audit.status_code == 200
    actions = [a.action for a in audit.context["log"]]
    assert {"entry_added", "round_seated", "no_show", "entry_dropped"} <= set(actions)


def test_co_organiser_added_on_the_desk_can_use_it(client, organiser):
    t = in_person(organiser)
    helper = make_user("helper")
    client.force_login(organiser)
    client.post(url("organiser_add", t.pk), {"username": "helper"})
    client.force_login(helper)
    assert client.get(url("desk", t.pk)).status_code == 200
    client.post(url("entry_add", t.pk), {"name": "Added by helper"})
    assert t.entries.get().name == "Added by helper"
    assert t.audit.get(action="entry_added").actor == helper


def test_printable_cards_and_score_sheets(client, running, organiser):
    client.force_login(organiser)
    response = client.get(url("cards", running.pk, 1))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('data-testid="table-card"') == 2
    assert "tn-score-sheet" in html and "@media print" in _css()
    assert client.get(url("cards", running.pk, 2)).status_code == 404


def _css() -> str:
    from pathlib import Path

    import games.tournaments

    path = Path(games.tournaments.__file__).parent / "static/tournaments/tournaments.css"
    return path.read_text()


def test_player_history_and_final_ranking_with_tie_breaks(client, organiser):
    t = in_person(organiser, rounds=1, published=True)
    register_names(t, organiser, NAMES[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    actions.do_enter_result(t.pk, organiser, tt.pk, [5, 4, 4, 0])  # two tied at 4
    page = client.get(url("detail", t.pk))
    html = page.content.decode()
    assert "Final ranking" in html
    rows = page.context["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    tied = [r for r in rows if r["game_total"] == 4]
    assert tied[0]["decided_by"] == "draw"  # same points, total and result between them
    assert tied[0]["draw_key"][:8] in html
    entry = rows[0]["entry"]
    history = client.get(url("player", t.pk, entry.pk))
    assert history.status_code == 200
    (row,) = history.context["history"]
    assert row["round"] == 1 and row["score"] == 5 and row["points"] == "4"
    assert len(row["others"]) == 3


def test_meeting_matrix_counts_pairs(client, running, organiser):
    client.force_login(organiser)
    response = client.get(url("matrix", running.pk))
    assert response.status_code == 200
    rows = response.context["rows"]
    met = sum(c for r in rows for c in r["cells"] if c)
    # 6 players at 2 tables of 3 people (+ a CPU each): 3 pairs per table, counted twice
    assert met == 2 * 3 * 2
    assert sum(r["starts"] for r in rows) == 2


def test_tournament_list_shows_public_and_mine(client, organiser, stranger):
    public = in_person(organiser, name="Open cup", published=True)
    hidden = in_person(organiser, name="Private cup")
    page = client.get(url("list")).content.decode()
    assert public.name in page and hidden.name not in page
    client.force_login(organiser)
    page = client.get(url("list")).content.decode()
    assert hidden.name in page


def test_saving_unchanged_settings_after_round_one_is_accepted(client, running, organiser):
    from games.tournaments.forms import TournamentForm

    client.force_login(organiser)
    data = {k: v for k, v in TournamentForm.initial_for(running).items() if v not in (None, False)}
    data.update({"date": running.date.isoformat(), "placing_points": "3 2 1 0", "published": "on"})
    data = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in data.items()}
    response = client.post(url("edit", running.pk), data, follow=True)
    assert "Saved." in response.content.decode()
    running.refresh_from_db()
    assert running.placing_points == [3, 2, 1, 0] and running.published
    assert running.variant == "classic" and running.options["start_points"] == 10
    audit = client.get(url("audit", running.pk)).content.decode()
    assert "round 1, table" not in audit and "Settings changed" in audit
