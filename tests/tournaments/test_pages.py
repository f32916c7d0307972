"""What the pages say and link to (the review pass): the desk's feedback and the actions
it offers, the result form's "then the next table", per-rule-set explanations, empty
states, the audit log's changes and the links between the pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext

from games.engine.options import validate_options
from games.engine.rules import RULES, rules_for
from games.tournaments import actions
from games.tournaments.models import Entry, TableResult, TournamentTable
from tests.tournaments.conftest import CLASSIC_OK, enter_all, in_person, register_names

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma"]


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def _row(html: str, name: str) -> str:
    start = html.index(f'data-name="{name}"')
    return html[start : html.index("</tr>", start)]


def test_desk_confirms_each_registration_change(client, organiser):
    t = in_person(organiser)
    client.force_login(organiser)
    page = client.post(url("entry_add", t.pk), {"name": "Ayşe"}, follow=True).content.decode()
    assert "Ayşe is registered." in page
    page = client.post(
        url("entry_add", t.pk), {"name": "Late", "joins_round": "2"}, follow=True
    ).content.decode()
    assert "Late is registered and plays from round 2." in page
    entry = Entry.objects.get(tournament=t, name="Ayşe")
    page = client.post(
        url("entry_no_show", t.pk, entry.pk), {"round": "1"}, follow=True
    ).content.decode()
    assert "Ayşe is marked absent in round 1" in page
    page = client.post(
        url("entry_no_show", t.pk, entry.pk), {"round": "1", "absent": "0"}, follow=True
    ).content.decode()
    assert "no longer marked absent in round 1" in page
    page = client.post(url("entry_remove", t.pk, entry.pk), follow=True).content.decode()
    assert "The registration was removed." in page


def test_desk_says_why_a_name_is_refused(client, organiser):
    """A name that passes for a CPU seat is refused with that reason, not a generic one."""
    t = in_person(organiser)
    client.force_login(organiser)
    page = client.post(url("entry_add", t.pk), {"name": "Ayşe (CPU)"}, follow=True)
    html = page.content.decode()
    assert "CPU" in html and "Give the player" not in html
    assert not Entry.objects.filter(tournament=t).exists()


def test_desk_offers_only_the_actions_that_apply(client, organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES[:4])
    actions.do_register_entry(t.pk, organiser, name="Late", joins_round=2)
    client.force_login(organiser)
    html = client.get(url("desk", t.pk)).content.decode()
    # before round 1: no drop-out (removing does it), no "absent" for a round not played
    assert 'data-testid="entry-drop"' not in html
    assert 'data-testid="entry-no-show"' not in _row(html, "Late")
    assert 'data-testid="entry-no-show"' in _row(html, "Cem")
    assert "late entry: from round 2" in _row(html, "Late")
    cem = Entry.objects.get(tournament=t, name="Cem")
    actions.do_set_no_show(t.pk, organiser, cem.pk, 1)
    html = client.get(url("desk", t.pk)).content.decode()
    assert 'data-testid="entry-present"' in _row(html, "Cem")
    actions.do_seat_next_round(t.pk, organiser)
    html = client.get(url("desk", t.pk)).content.decode()
    assert 'data-testid="entry-drop"' in _row(html, "Late")
    assert 'data-testid="entry-no-show"' in _row(html, "Late")  # round 2 is theirs


def test_finished_tournament_desk_has_no_registration_form(client, organiser):
    t = in_person(organiser, rounds=1)
    register_names(t, organiser, NAMES[:4])
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 1)
    client.force_login(organiser)
    html = client.get(url("desk", t.pk)).content.decode()
    assert 'data-testid="finished-note"' in html
    assert 'data-testid="entry-form"' not in html
    assert url("detail", t.pk) in html


def test_result_form_save_then_next_table(client, organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES)
    actions.do_seat_next_round(t.pk, organiser)
    first, second = TournamentTable.objects.filter(round__tournament=t).order_by("number")
    client.force_login(organiser)
    form = client.get(url("result", t.pk, first.pk)).content.decode()
    assert 'data-testid="result-save-next"' in form
    assert "everyone starts with 10" in form  # the rule set's hint
    data = {f"seat_{i}": str(v) for i, v in enumerate(CLASSIC_OK[0])}
    response = client.post(url("result", t.pk, first.pk), {**data, "then": "next"})
    assert response.status_code == 302
    assert response["Location"] == url("result", t.pk, second.pk)
    # the last open table: no "next" button, and saving goes back to the round on the desk
    form = client.get(url("result", t.pk, second.pk)).content.decode()
    assert 'data-testid="result-save-next"' not in form
    response = client.post(url("result", t.pk, second.pk), {**data, "then": "next"})
    assert response["Location"] == url("desk", t.pk) + "#round-1"
    assert TableResult.objects.filter(table__round__tournament=t).count() == 2


@pytest.mark.parametrize("name", list(RULES))
def test_result_form_says_what_to_type_in_the_rule_sets_own_terms(client, organiser, name):
    t = in_person(organiser, variant=name, options={})
    register_names(t, organiser, NAMES[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    client.force_login(organiser)
    html = client.get(url("result", t.pk, tt.pk)).content.decode()
    msgid, values = RULES[name].score_hint(validate_options(name, {"players": 4}))
    hint = gettext(msgid) % values
    assert msgid and "%(" not in hint
    assert f'data-testid="score-hint">{escape(hint)}</p>' in html


def test_result_form_hint_counts_the_tables_seats(client, organiser):
    # Okey Rummy's target depends on the table's size [D7]: 10 at three seats, 8 at four.
    t = in_person(organiser, variant="rummy", options={}, three_player_tables=True)
    register_names(t, organiser, NAMES[:3])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    assert len(tt.seats) == 3
    client.force_login(organiser)
    html = client.get(url("result", t.pk, tt.pk)).content.decode()
    assert "the game ends when one player reaches 10." in html


def test_classic_impossible_total_is_explained_for_classic(client, organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    client.force_login(organiser)
    response = client.post(
        url("result", t.pk, tt.pk), {"seat_0": "10", "seat_1": "4", "seat_2": "1", "seat_3": "0"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="impossible_total"' in html
    assert gettext(rules_for("classic").problem_texts["impossible_total"]) in html


def test_matrix_empty_state_then_legend(client, organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES[:4])
    client.force_login(organiser)
    html = client.get(url("matrix", t.pk)).content.decode()
    assert 'data-testid="matrix-empty"' in html and 'data-testid="matrix"' not in html
    actions.do_seat_next_round(t.pk, organiser)
    html = client.get(url("matrix", t.pk)).content.decode()
    assert 'data-testid="matrix"' in html and "met more than once" in html
    entry = t.entries.first()
    assert url("player", t.pk, entry.pk) in html


def test_standings_show_no_ranks_before_the_first_result(client, organiser):
    t = in_person(organiser, published=True)
    register_names(t, organiser, NAMES[:4])
    html = client.get(url("detail", t.pk)).content.decode()
    assert 'data-testid="no-results-yet"' in html
    decided = html.split('data-testid="decided-by">')[1:]
    assert decided and all(d.startswith("</td>") for d in decided)
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    actions.do_enter_result(t.pk, organiser, tt.pk, CLASSIC_OK[0])
    html = client.get(url("detail", t.pk)).content.decode()
    assert 'data-testid="no-results-yet"' not in html


def test_player_history_links_back_and_to_opponents_only_when_published(
    client, organiser, stranger
):
    t = in_person(organiser, published=True)
    register_names(t, organiser, NAMES[:3])
    me = actions.do_register_entry(t.pk, organiser, username="stranger")
    actions.do_seat_next_round(t.pk, organiser)
    others = [e for e in t.entries.all() if e.pk != me.pk]
    client.force_login(stranger)
    html = client.get(url("player", t.pk, me.pk)).content.decode()
    assert url("detail", t.pk) in html
    assert url("player", t.pk, others[0].pk) in html
    assert url("desk", t.pk) not in html
    t.published = False
    t.save()
    html = client.get(url("player", t.pk, me.pk)).content.decode()
    assert all(url("player", t.pk, e.pk) not in html for e in others)


def test_audit_log_shows_what_changed(client, organiser):
    t = in_person(organiser)
    (entry,) = register_names(t, organiser, ["Cem"])
    actions.do_set_no_show(t.pk, organiser, entry.pk, 2)
    client.force_login(organiser)
    html = client.get(url("audit", t.pk)).content.decode()
    assert "no_shows: <del>[]</del> → <ins>[2]</ins>" in html


def test_number_options_are_not_labelled_on_or_off():
    """Fifty-one's "hands" is 1 or 3; 1 == True, so a dict lookup of the bool labels
    showed one hand as "on"."""
    from games.tournaments.forms import TournamentForm

    form = TournamentForm()
    hands = dict(form.fields["fifty-one__hands"].choices)
    assert {k: str(v) for k, v in hands.items()} == {"1": "1", "3": "3"}
    partners = {k: str(v) for k, v in form.fields["fifty-one__partners"].choices}
    assert partners == {"0": "off", "1": "on"}


def test_public_online_page_tells_visitors_how_to_find_their_table(client, organiser):
    from tests.tournaments.conftest import online

    t = online(organiser, published=True)
    html = client.get(url("detail", t.pk)).content.decode()
    assert 'data-testid="login-hint"' in html
    assert f"/accounts/login/?next={url('detail', t.pk)}" in html


def test_settings_form_marks_the_rule_sets_played_by_three(client, organiser):
    """The settings script offers three-player tables for the options marked
    data-three-players: exactly the rule sets whose rules seat three."""
    client.force_login(organiser)
    html = client.get(url("create")).content.decode()
    marked = set(re.findall(r'<option value="([^"]+)"[^>]*data-three-players="1"', html))
    assert marked == {name for name, rules in RULES.items() if 3 in rules.players}
    assert "rummy" in marked  # Okey Rummy is played by 2 to 4 (RULES.md §3)
    assert "data-three-players-only" in html
