"""The desk's actions: registrations, seating with late entries, drop-outs and
no-shows, result entry and correction, the audit log, and who may do what."""

from __future__ import annotations

import pytest

from games.engine.rules import RULES
from games.tournaments import actions
from games.tournaments.messages import error_text
from games.tournaments.models import AuditEntry, Entry, TableResult, Tournament, TournamentTable
from tests.tournaments.conftest import (
    CLASSIC_OK,
    enter_all,
    in_person,
    make_user,
    online,
    register_names,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gül", "Hakan"]


def seated_names(t: Tournament, round_no: int) -> set[str]:
    names = {e.pid: e.name for e in t.entries.all()}
    out = set()
    for tt in TournamentTable.objects.filter(round__tournament=t, round__number=round_no):
        out |= {names[p] for p in tt.seats if p is not None}
    return out


def test_create_validates_options_and_fixes_table_size(organiser):
    t = in_person(organiser)
    assert t.options == {
        "players": 4,
        "start_points": 10,
        "clock": 0,
        "assisted": False,
        "cpu_speed": "normal",
    }
    assert t.placing_points == [4, 2, 1, 0]
    assert t.status == Tournament.Status.REGISTRATION
    with pytest.raises(actions.TournamentError) as e:
        in_person(organiser, options={"start_points": 15})
    assert e.value.code == "bad_option"
    with pytest.raises(actions.TournamentError) as e:
        in_person(organiser, rounds=0)
    assert e.value.code == "bad_rounds"
    with pytest.raises(actions.TournamentError) as e:
        in_person(organiser, three_player_tables=True)
    assert e.value.code == "no_three_player_tables"
    with pytest.raises(actions.TournamentError) as e:
        in_person(organiser, placing_points=[3, 2, 1])
    assert e.value.code == "bad_placing_points"


@pytest.mark.parametrize("name", list(RULES))
def test_three_player_tables_only_for_a_rule_set_played_by_three(organiser, name):
    values = {"variant": name, "options": {}, "three_player_tables": True}
    if 3 in RULES[name].players:
        assert in_person(organiser, **values).three_player_tables
    else:
        with pytest.raises(actions.TournamentError) as e:
            in_person(organiser, **values)
        assert e.value.code == "no_three_player_tables"
        assert error_text(e.value.code) == "This rule set is not played at three-player tables."


def test_registration_by_account_or_name(organiser):
    t = in_person(organiser)
    make_user("ayse")
    by_account = actions.do_register_entry(t.pk, organiser, username="AYSE")
    assert by_account.user.username == "ayse" and by_account.name == "ayse"
    by_name = actions.do_register_entry(t.pk, organiser, name="Baran")
    assert by_name.user is None
    with pytest.raises(actions.TournamentError) as e:
        actions.do_register_entry(t.pk, organiser, username="ayse")
    assert e.value.code == "already_registered"
    with pytest.raises(actions.TournamentError) as e:
        actions.do_register_entry(t.pk, organiser, username="nobody")
    assert e.value.code == "no_such_account"
    with pytest.raises(actions.TournamentError) as e:
        actions.do_register_entry(t.pk, organiser)
    assert e.value.code == "name_needed"


def test_a_bot_account_cannot_be_registered(organiser):
    """Bots play casual tables only (docs/bots-api.md): a tournament's seats are people's."""
    from accounts.models import Profile

    t = online(organiser)
    robo = make_user("robo")
    Profile.objects.filter(user=robo).update(is_bot=True)
    with pytest.raises(actions.TournamentError) as e:
        actions.do_register_entry(t.pk, organiser, username="robo")
    assert e.value.code == "bot_account"
    assert "robo is a bot account" in error_text(e.value.code, **e.value.params)
    assert not Entry.objects.filter(tournament=t).exists()


def test_online_tournament_needs_accounts(organiser):
    from tests.tournaments.conftest import online

    t = online(organiser)
    with pytest.raises(actions.TournamentError) as e:
        actions.do_register_entry(t.pk, organiser, name="No account")
    assert e.value.code == "account_needed"
    assert not t.entries.exists()


def test_only_organisers_change_anything(organiser, stranger):
    t = in_person(organiser)
    (entry,) = register_names(t, organiser, ["Ayşe"])
    calls = [
        lambda: actions.do_register_entry(t.pk, stranger, name="Intruder"),
        lambda: actions.do_drop_entry(t.pk, stranger, entry.pk),
        lambda: actions.do_set_no_show(t.pk, stranger, entry.pk, 1),
        lambda: actions.do_remove_entry(t.pk, stranger, entry.pk),
        lambda: actions.do_seat_next_round(t.pk, stranger),
        lambda: actions.do_update_tournament(t.pk, stranger, name="Mine now"),
        lambda: actions.do_add_organiser(t.pk, stranger, "stranger"),
    ]
    for call in calls:
        with pytest.raises(actions.TournamentError) as e:
            call()
        assert e.value.code == "not_organiser"
    t.refresh_from_db()
    assert t.name == "Club night" and t.entries.count() == 1 and not t.round_set.exists()
    assert not t.audit.filter(actor=stranger).exists()


def test_co_organiser_can_run_the_desk_but_only_the_owner_removes_one(organiser):
    t = in_person(organiser)
    helper = make_user("helper")
    actions.do_add_organiser(t.pk, organiser, "helper")
    assert t.is_organiser(helper)
    actions.do_register_entry(t.pk, helper, name="Ayşe")
    with pytest.raises(actions.TournamentError) as e:
        actions.do_remove_organiser(t.pk, helper, helper.pk)
    assert e.value.code == "not_owner"
    actions.do_remove_organiser(t.pk, organiser, helper.pk)
    assert not t.is_organiser(helper)


def test_round_one_is_recomputable_from_the_published_seed(organiser):
    from games.tournaments import seating

    t = in_person(organiser, seed="published-seed")
    register_names(t, organiser, NAMES)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    stored = [tuple(tt.seats) for tt in rnd.tables.order_by("number")]
    players = [e.pid for e in t.entries.all()]
    again = seating.seat_round(players, [], seed="published-seed", round_no=1, rounds_total=3)
    assert stored == [st.seats for st in again]
    assert len(stored) == 2 and all(len(s) == 4 and None not in s for s in stored)
    other = seating.seat_round(players, [], seed="another-seed", round_no=1, rounds_total=3)
    assert stored != [st.seats for st in other]


def test_player_count_not_a_multiple_of_four_gets_cpu_seats(organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES[:6])
    rnd = actions.do_seat_next_round(t.pk, organiser)
    tables = list(rnd.tables.all())
    seats = [p for tt in tables for p in tt.seats]
    assert len(tables) == 2 and all(len(tt.seats) == 4 for tt in tables)
    assert seats.count(None) == 2 and len({p for p in seats if p}) == 6


def test_late_entries_drop_outs_and_no_shows_flow_into_seating(organiser):
    t = in_person(organiser)
    entries = register_names(t, organiser, NAMES[:6])
    actions.do_seat_next_round(t.pk, organiser)
    assert seated_names(t, 1) == set(NAMES[:6])
    # a late entry from round 2; a drop-out from round 2; a no-show in round 2 only
    late = actions.do_register_entry(t.pk, organiser, name="Late Lale")
    assert late.joins_round == 2
    with pytest.raises(actions.TournamentError) as e:
        actions.do_register_entry(t.pk, organiser, name="Too late", joins_round=1)
    assert e.value.code == "round_already_seated"
    actions.do_register_entry(t.pk, organiser, name="Later Levent", joins_round=3)
    actions.do_drop_entry(t.pk, organiser, entries[0].pk)
    actions.do_set_no_show(t.pk, organiser, entries[1].pk, 2)
    with pytest.raises(actions.TournamentError) as e:
        actions.do_set_no_show(t.pk, organiser, entries[2].pk, 1)  # round 1 is seated
    assert e.value.code == "round_already_seated"

    with pytest.raises(actions.TournamentError) as e:
        actions.do_seat_next_round(t.pk, organiser)
    assert e.value.code == "round_not_complete"
    enter_all(t, organiser, 1)
    actions.do_seat_next_round(t.pk, organiser)
    assert seated_names(t, 2) == {"Cem", "Deniz", "Elif", "Fatma", "Late Lale"}

    enter_all(t, organiser, 2)
    actions.do_seat_next_round(t.pk, organiser)
    assert seated_names(t, 3) == {"Baran", "Cem", "Deniz", "Elif", "Fatma", "Late Lale"} | {
        "Later Levent"
    }
    # the drop-out keeps the results they had
    rows = {r.player: r for r in actions.standings(t)}
    assert rows[entries[0].pid].played == 1


def test_results_are_validated_by_the_variant_rules(organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES[:4])
    rnd = actions.do_seat_next_round(t.pk, organiser)
    tt = rnd.tables.get()
    with pytest.raises(actions.ResultRefused) as e:
        actions.do_enter_result(t.pk, organiser, tt.pk, [11, 4, 0, 2])  # above the start
    assert {p.code for p in e.value.problems} >= {"above_start"}
    assert e.value.problems[0].seat == 0
    with pytest.raises(actions.ResultRefused) as e:
        actions.do_enter_result(t.pk, organiser, tt.pk, [10, 4, 0])
    assert [p.code for p in e.value.problems] == ["seat_count"]
    with pytest.raises(actions.ResultRefused) as e:
        actions.do_enter_result(t.pk, organiser, tt.pk, ["ten", 4, 0, 2])
    assert [p.code for p in e.value.problems] == ["not_integer"]
    assert not TableResult.objects.exists()
    assert not t.audit.filter(action__startswith="result").exists()
    actions.do_enter_result(t.pk, organiser, tt.pk, CLASSIC_OK[0])
    assert TableResult.objects.get().scores == CLASSIC_OK[0]


def test_correcting_a_result_is_audited_with_before_and_after(organiser):
    t = in_person(organiser, rounds=1)
    register_names(t, organiser, NAMES[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    actions.do_enter_result(t.pk, organiser, tt.pk, CLASSIC_OK[0])
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED  # the only round's only table
    helper = make_user("helper")
    actions.do_add_organiser(t.pk, organiser, "helper")
    actions.do_enter_result(t.pk, helper, tt.pk, CLASSIC_OK[2])
    entry = t.audit.get(action="result_corrected")
    assert entry.actor == helper
    assert entry.before == {"scores": CLASSIC_OK[0], "source": "entered"}
    assert entry.after == {"scores": CLASSIC_OK[2]}
    assert entry.at is not None and "round 1 table 1" in entry.what
    assert t.audit.get(action="result_entered").actor == organiser


def test_every_registration_change_is_audited(organiser):
    t = in_person(organiser)
    (e,) = register_names(t, organiser, ["Ayşe"])
    actions.do_set_no_show(t.pk, organiser, e.pk, 2)
    actions.do_set_no_show(t.pk, organiser, e.pk, 2, absent=False)
    actions.do_drop_entry(t.pk, organiser, e.pk, 3)
    actions.do_reinstate_entry(t.pk, organiser, e.pk)
    actions.do_remove_entry(t.pk, organiser, e.pk)
    logged = list(
        AuditEntry.objects.filter(tournament=t).order_by("id").values_list("action", flat=True)
    )
    assert logged == [
        "created",
        "entry_added",
        "no_show",
        "no_show_cleared",
        "entry_dropped",
        "entry_reinstated",
        "entry_removed",
    ]
    dropped = t.audit.get(action="entry_dropped")
    assert dropped.before["dropped_from_round"] is None
    assert dropped.after["dropped_from_round"] == 3
    assert t.audit.get(action="entry_removed").before["name"] == "Ayşe"


def test_a_seated_player_cannot_be_removed_only_dropped(organiser):
    t = in_person(organiser)
    entries = register_names(t, organiser, NAMES[:4])
    actions.do_seat_next_round(t.pk, organiser)
    with pytest.raises(actions.TournamentError) as e:
        actions.do_remove_entry(t.pk, organiser, entries[0].pk)
    assert e.value.code == "already_seated"
    assert Entry.objects.filter(pk=entries[0].pk).exists()


def test_forged_ids_of_another_tournament_are_refused(organiser):
    mine = in_person(organiser)
    other_owner = make_user("other")
    other = in_person(other_owner)
    (theirs,) = register_names(other, other_owner, ["Theirs"])
    register_names(other, other_owner, NAMES[:3])
    other_table = actions.do_seat_next_round(other.pk, other_owner).tables.get()
    with pytest.raises(actions.TournamentError) as e:
        actions.do_drop_entry(mine.pk, organiser, theirs.pk)
    assert e.value.code == "no_such_entry"
    with pytest.raises(actions.TournamentError) as e:
        actions.do_enter_result(mine.pk, organiser, other_table.pk, CLASSIC_OK[0])
    assert e.value.code == "no_such_table"
    assert not TableResult.objects.exists()


def test_settings_lock_once_play_began_but_scoring_may_change(organiser):
    t = in_person(organiser)
    register_names(t, organiser, NAMES[:4])
    actions.do_seat_next_round(t.pk, organiser)
    with pytest.raises(actions.TournamentError) as e:
        actions.do_update_tournament(t.pk, organiser, variant="rummy", options={})
    assert e.value.code == "locked_after_start"
    with pytest.raises(actions.TournamentError) as e:
        actions.do_update_tournament(t.pk, organiser, seed="another")
    assert e.value.code == "locked_after_start"
    t = actions.do_update_tournament(t.pk, organiser, scoring="sum", published=True)
    assert t.scoring == "sum" and t.published
    changed = t.audit.get(action="settings")
    assert changed.before == {"scoring": "placing", "published": False}
    assert changed.after == {"scoring": "sum", "published": True}


def test_standings_never_list_a_cpu(organiser):
    t = in_person(organiser, rounds=1)
    register_names(t, organiser, NAMES[:3])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    cpu_seat = tt.seats.index(None)
    scores = [10, 4, 0, 2]
    # the CPU wins the table: it still takes no place in the standings
    scores[cpu_seat], scores[0] = scores[0], scores[cpu_seat]
    actions.do_enter_result(t.pk, organiser, tt.pk, scores)
    rows = actions.standings(t)
    assert len(rows) == 3 and [r.rank for r in rows] == [1, 2, 3]
    assert {r.player for r in rows} == {e.pid for e in t.entries.all()}
    assert rows[0].points == 2  # the best person placed second at the table


def test_swiss_seating_uses_the_standings(organiser):
    t = in_person(organiser, seating="swiss")
    register_names(t, organiser, NAMES)
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 1)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    ranking = [r.player for r in actions.standings(t)]
    top = set(ranking[:4])
    assert any(set(tt.seats) == top for tt in rnd.tables.all())


def test_a_dropped_player_comes_back_only_while_a_round_is_left(organiser):
    t = in_person(organiser, rounds=2)
    entries = register_names(t, organiser, [f"P{i}" for i in range(8)])
    actions.do_seat_next_round(t.pk, organiser)
    actions.do_drop_entry(t.pk, organiser, entries[0].pk, 2)
    actions.do_reinstate_entry(t.pk, organiser, entries[0].pk)  # round 2 is not seated yet
    entries[0].refresh_from_db()
    assert entries[0].dropped_from_round is None
    actions.do_drop_entry(t.pk, organiser, entries[1].pk, 2)
    enter_all(t, organiser, 1)
    actions.do_seat_next_round(t.pk, organiser)
    with pytest.raises(actions.TournamentError) as e:
        actions.do_reinstate_entry(t.pk, organiser, entries[1].pk)
    assert e.value.code == "no_more_rounds"
    entries[1].refresh_from_db()
    assert entries[1].dropped_from_round == 2
