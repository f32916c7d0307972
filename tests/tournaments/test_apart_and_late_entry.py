"""Must-not-meet pairs, CPU-table turns and late entry up to a round, through the desk's
services and pages: pairs never seated together, a round that cannot part them is not
seated (and says why), the published seed reproduces the seating with the same pairs,
registration closes after the late-entry round, missed rounds count as last place."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.tournaments import actions, seating
from games.tournaments.messages import error_text
from games.tournaments.models import AuditEntry, Entry, KeepApart, Round, TournamentTable
from games.tournaments.presenter import standing_rows
from games.tournaments.standings import TableResult, compute_standings
from tests.tournaments.conftest import enter_all, in_person, register_names

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gül", "Hakan"]


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def by_name(t) -> dict[str, Entry]:
    return {e.name: e for e in t.entries.all()}


def tables_of(t, round_no: int) -> list[list[str | None]]:
    names = {e.pid: e.name for e in t.entries.all()}
    return [
        [names.get(p) if p else None for p in tt.seats]
        for tt in TournamentTable.objects.filter(
            round__tournament=t, round__number=round_no
        ).order_by("number")
    ]


def sat_together(t, a: str, b: str) -> int:
    return sum(
        1
        for r in range(1, t.seated_rounds + 1)
        for table in tables_of(t, r)
        if a in table and b in table
    )


# ------------------------------------------------------------ must-not-meet pairs


def test_pairs_are_added_checked_audited_and_removed(organiser):
    t = in_person(organiser)
    e = {x.name: x for x in register_names(t, organiser, NAMES)}
    pair = actions.do_add_keep_apart(t.pk, organiser, e["Cem"].pk, e["Ayşe"].pk)
    assert pair.pids == (e["Ayşe"].pid, e["Cem"].pid)  # stored in id order
    with pytest.raises(actions.TournamentError) as err:
        actions.do_add_keep_apart(t.pk, organiser, e["Ayşe"].pk, e["Cem"].pk)
    assert err.value.code == "already_apart"
    assert error_text(err.value.code, **err.value.params) == (
        "Ayşe and Cem are already kept apart."
    )
    with pytest.raises(actions.TournamentError) as err:
        actions.do_add_keep_apart(t.pk, organiser, e["Cem"].pk, e["Cem"].pk)
    assert err.value.code == "same_entry"
    other = in_person(organiser, name="Other night")
    (stranger_entry,) = register_names(other, organiser, ["Zeki"])
    with pytest.raises(actions.TournamentError) as err:
        actions.do_add_keep_apart(t.pk, organiser, e["Cem"].pk, stranger_entry.pk)
    assert err.value.code == "no_such_entry"
    with pytest.raises(actions.TournamentError) as err:
        actions.do_remove_keep_apart(other.pk, organiser, pair.pk)
    assert err.value.code == "no_such_pair"
    actions.do_remove_keep_apart(t.pk, organiser, pair.pk)
    assert not KeepApart.objects.exists()
    logged = list(AuditEntry.objects.filter(tournament=t).values_list("action", "what"))
    assert ("apart_added", "Ayşe / Cem") in logged
    assert ("apart_removed", "Ayşe / Cem") in logged


def test_only_organisers_add_pairs(organiser, stranger):
    t = in_person(organiser)
    e = register_names(t, organiser, NAMES[:2])
    with pytest.raises(actions.TournamentError) as err:
        actions.do_add_keep_apart(t.pk, stranger, e[0].pk, e[1].pk)
    assert err.value.code == "not_organiser"


def seat_and_play(t, actor, rounds: int) -> None:
    for r in range(t.seated_rounds + 1, t.seated_rounds + rounds + 1):
        actions.do_seat_next_round(t.pk, actor)
        enter_all(t, actor, r)


def test_a_family_never_sits_together_and_the_seed_reproduces_the_seating(organiser):
    t = in_person(organiser, rounds=4)
    e = {x.name: x for x in register_names(t, organiser, NAMES + ["Irmak", "Jale"])}
    family = [("Ayşe", "Baran"), ("Ayşe", "Cem"), ("Baran", "Cem"), ("Elif", "Fatma")]
    for a, b in family:
        actions.do_add_keep_apart(t.pk, organiser, e[a].pk, e[b].pk)
    seat_and_play(t, organiser, 4)
    for a, b in family:
        assert sat_together(t, a, b) == 0
    # anyone with the published seed, the rounds, the entries and the pairs gets the same
    # seating again, round by round
    rounds = actions.past_rounds(t)
    pairs = actions.keep_apart_pairs(t)
    for number in range(1, 5):
        players = [x.pid for x in t.entries.all() if x.plays_round(number)]
        again = seating.seat_round(
            players,
            rounds[: number - 1],
            seed=t.seed,
            round_no=number,
            method=t.seating,
            rounds_total=t.rounds,
            keep_apart=pairs,
        )
        assert [list(s.seats) for s in again] == rounds[number - 1]


def test_a_round_that_cannot_part_the_pairs_is_not_seated(organiser):
    t = in_person(organiser)
    e = {x.name: x for x in register_names(t, organiser, NAMES)}
    # eight players sit at two tables: three who must all sit apart cannot
    for a, b in [("Ayşe", "Baran"), ("Baran", "Cem"), ("Ayşe", "Cem")]:
        actions.do_add_keep_apart(t.pk, organiser, e[a].pk, e[b].pk)
    audit_before = AuditEntry.objects.filter(tournament=t).count()
    with pytest.raises(actions.TournamentError) as err:
        actions.do_seat_next_round(t.pk, organiser)
    assert err.value.code == "pairs_cannot_be_kept_apart"
    assert not Round.objects.filter(tournament=t).exists()
    assert AuditEntry.objects.filter(tournament=t).count() == audit_before
    text = error_text(err.value.code, err.value.message, **err.value.params)
    assert text.startswith("Round not seated: the 2 tables of this round cannot keep")
    assert "Ayşe & Baran" in text and "Ayşe & Cem" in text and "Baran & Cem" in text
    # one of them absent this round: the other two sit apart
    actions.do_set_no_show(t.pk, organiser, e["Cem"].pk, 1)
    actions.do_seat_next_round(t.pk, organiser)
    assert sat_together(t, "Ayşe", "Baran") == 0


def test_the_desk_adds_and_removes_a_pair_and_shows_the_impossible_round(client, organiser):
    t = in_person(organiser)
    e = {x.name: x for x in register_names(t, organiser, NAMES)}
    client.force_login(organiser)
    page = client.get(url("desk", t.pk)).content.decode()
    assert 'data-testid="apart-form"' in page
    response = client.post(
        url("apart_add", t.pk), {"first": e["Ayşe"].pk, "second": e["Baran"].pk}, follow=True
    )
    assert "Ayşe and Baran will never sit at the same table." in response.content.decode()
    response = client.post(
        url("apart_add", t.pk), {"first": e["Ayşe"].pk, "second": e["Ayşe"].pk}, follow=True
    )
    assert "Choose two different players." in response.content.decode()
    for a, b in [("Baran", "Cem"), ("Ayşe", "Cem")]:
        client.post(url("apart_add", t.pk), {"first": e[a].pk, "second": e[b].pk})
    assert KeepApart.objects.filter(tournament=t).count() == 3
    response = client.post(url("seat", t.pk), follow=True).content.decode()
    assert "Round not seated: the 2 tables of this round cannot keep" in response
    assert t.round_set.count() == 0
    pair = KeepApart.objects.filter(tournament=t).first()
    response = client.post(url("apart_remove", t.pk, pair.pk), follow=True)
    assert "The pair may sit together again." in response.content.decode()
    assert KeepApart.objects.filter(tournament=t).count() == 2
    assert "Round 1 is seated." in client.post(url("seat", t.pk), follow=True).content.decode()


def test_the_cpu_table_goes_round(organiser):
    # seven players: a table of four and one of three with a CPU seat; nobody sits at
    # the CPU table a second time while someone has not had it
    t = in_person(organiser, rounds=4)
    register_names(t, organiser, NAMES[:7])
    for r in range(1, 5):
        before = seating.cpu_table_counts(actions.past_rounds(t))
        actions.do_seat_next_round(t.pk, organiser)
        cpu_table = next(tt for tt in tables_of(t, r) if None in tt)
        at_cpu = {x.pid for x in t.entries.all() if x.name in cpu_table}
        others = [before.get(x.pid, 0) for x in t.entries.all() if x.pid not in at_cpu]
        assert max(before.get(p, 0) for p in at_cpu) <= min(others)
        enter_all(t, organiser, r)
    # twelve CPU-table places over four rounds: five players had two, two had one
    assert sorted(seating.cpu_table_counts(actions.past_rounds(t)).values()) == [1, 1] + [2] * 5


# ------------------------------------------------------------------ late entry


def test_late_entry_is_accepted_up_to_its_round_and_refused_after(organiser):
    t = in_person(organiser, rounds=4, late_entry_until=2)
    register_names(t, organiser, NAMES[:4])
    with pytest.raises(actions.TournamentError) as err:  # before the start: round 3 > 2
        actions.do_register_entry(t.pk, organiser, name="Irmak", joins_round=3)
    assert err.value.code == "late_entry_closed"
    seat_and_play(t, organiser, 1)
    late = actions.do_register_entry(t.pk, organiser, name="Irmak")  # round 2: the last one
    assert late.joins_round == 2
    actions.do_seat_next_round(t.pk, organiser)
    assert any("Irmak" in table for table in tables_of(t, 2))
    enter_all(t, organiser, 2)
    with pytest.raises(actions.TournamentError) as err:  # round 3 is after round 2
        actions.do_register_entry(t.pk, organiser, name="Jale")
    assert err.value.code == "late_entry_closed"
    assert error_text(err.value.code, **err.value.params) == (
        "Registration is closed: late entry was open until round 2."
    )
    # the organiser may open it again
    actions.do_update_tournament(t.pk, organiser, late_entry_until=3)
    assert actions.do_register_entry(t.pk, organiser, name="Jale").joins_round == 3


def test_no_limit_keeps_late_entry_open_to_the_last_round(organiser):
    t = in_person(organiser, rounds=3)
    register_names(t, organiser, NAMES[:4])
    seat_and_play(t, organiser, 2)
    assert actions.do_register_entry(t.pk, organiser, name="Irmak").joins_round == 3


def test_late_entry_round_must_be_a_round_of_the_tournament(organiser):
    with pytest.raises(actions.TournamentError) as err:
        in_person(organiser, rounds=3, late_entry_until=4)
    assert err.value.code == "bad_late_entry"
    t = in_person(organiser, rounds=3, late_entry_until=3)
    with pytest.raises(actions.TournamentError) as err:
        actions.do_update_tournament(t.pk, organiser, rounds=2)  # round 3 would not exist
    assert err.value.code == "bad_late_entry"


def test_the_desk_closes_registration_after_the_late_entry_round(client, organiser):
    t = in_person(organiser, rounds=3, late_entry_until=1)
    register_names(t, organiser, NAMES[:4])
    client.force_login(organiser)
    assert 'data-testid="entry-form"' in client.get(url("desk", t.pk)).content.decode()
    seat_and_play(t, organiser, 1)
    page = client.get(url("desk", t.pk)).content.decode()
    assert 'data-testid="entry-form"' not in page
    assert "Registration is closed: late entry was open until round 1." in page
    response = client.post(url("entry_add", t.pk), {"name": "Irmak"}, follow=True)
    assert "Registration is closed: late entry was open until round 1." in (
        response.content.decode()
    )
    assert t.entries.count() == 4


def test_the_settings_form_saves_the_late_entry_round(client, organiser):
    from games.tournaments.forms import TournamentForm

    t = in_person(organiser, rounds=3)
    client.force_login(organiser)
    assert 'name="late_entry_until"' in client.get(url("desk", t.pk)).content.decode()
    data = {k: v for k, v in TournamentForm.initial_for(t).items() if v not in (None, False)}
    data.update({"date": t.date.isoformat(), "placing_points": "4 2 1 0", "late_entry_until": 2})
    response = client.post(url("edit", t.pk), data, follow=True)
    assert "Saved." in response.content.decode()
    t.refresh_from_db()
    assert t.late_entry_until == 2
    data["late_entry_until"] = ""
    client.post(url("edit", t.pk), data)
    t.refresh_from_db()
    assert t.late_entry_until is None


def test_missed_rounds_count_as_last_place(client, organiser):
    # placing points with a negative last place: a missed round is worth it, not zero
    t = in_person(organiser, rounds=2, placing_points=[3, 1, 0, -2])
    register_names(t, organiser, NAMES[:4])
    seat_and_play(t, organiser, 1)
    late = actions.do_register_entry(t.pk, organiser, name="Irmak")
    rows = {r.player: r for r in actions.standings(t)}
    # round 1's worst game score (classic: the highest wins) of its one table is 0
    assert rows[late.pid].points == -2 and rows[late.pid].game_total == 0
    assert rows[late.pid].played == 0 and rows[late.pid].missed == 1
    page_rows = {r["name"]: r for r in standing_rows(t, {e.pid: e for e in t.entries.all()})}
    assert page_rows["Irmak"]["missed"] == 1
    client.force_login(organiser)
    page = client.get(url("detail", t.pk)).content.decode()
    assert "+1 missed, scored last" in page


@pytest.mark.parametrize(
    "variant,worst",
    [("classic", 0), ("fifty-one", 300)],  # the highest wins / the lowest wins
)
def test_missed_round_takes_the_rounds_worst_score(variant, worst):
    results = [TableResult(1, 1, ("a", "b", "c", None), (120, 0, 300, 40))]
    for scoring in ("placing", "sum"):
        rows = compute_standings(
            ["a", "b", "c", "late"],
            results,
            variant=variant,
            scoring=scoring,
            placing_points=(4, 2, 1, 0),
            draw_seed="s",
            missed={"late": [1, 2]},  # round 2 has no result yet: not counted
        )
        late = next(r for r in rows if r.player == "late")
        assert late.game_total == worst and late.missed == 1 and late.played == 0
        assert late.points == (0 if scoring == "placing" else worst)


def test_standings_without_missed_rounds_are_unchanged():
    results = [TableResult(1, 1, ("a", "b"), (10, 0))]
    kw = {"variant": "classic", "draw_seed": "s"}
    assert compute_standings(["a", "b"], results, **kw) == compute_standings(
        ["a", "b"], results, missed={}, **kw
    )


# ------------------------------------------------------------------ the file


def test_the_file_keeps_pairs_and_the_late_entry_round(organiser):
    from games.tournaments import exchange

    t = in_person(organiser, rounds=3, late_entry_until=2)
    e = {x.name: x for x in register_names(t, organiser, NAMES)}
    actions.do_add_keep_apart(t.pk, organiser, e["Cem"].pk, e["Ayşe"].pk)
    seat_and_play(t, organiser, 1)
    t.refresh_from_db()
    data = exchange.export_tournament(t)
    assert data["keep_apart"] == [[0, 2]]  # player indexes, smaller first
    assert data["tournament"]["late_entry_until"] == 2
    copy = exchange.do_import_tournament(organiser, data)
    assert exchange.export_tournament(copy) == data
    assert copy.late_entry_until == 2
    actions.do_seat_next_round(copy.pk, organiser)
    assert sat_together(copy, "Ayşe", "Cem") == 0
    for bad in ([[0, 0]], [[0, 99]], [[0]], "0-2"):
        with pytest.raises(exchange.ImportRefused):
            exchange.do_import_tournament(organiser, {**data, "keep_apart": bad})


def test_a_file_without_pairs_is_unchanged(organiser):
    from games.tournaments import exchange

    t = in_person(organiser)
    register_names(t, organiser, NAMES[:4])
    assert "keep_apart" not in exchange.export_tournament(t)
