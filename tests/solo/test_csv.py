"""The score sheet's CSV export equals the sheet: one row per score line, then the totals."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse

from games.live import actions
from games.live.messages import reason_label
from games.models import ScoreLine
from tests.solo.conftest import play_game, play_hand, solo_table

pytestmark = pytest.mark.django_db


def read_csv(client, code):
    r = client.get(reverse("solo:sheet_csv", args=[code]))
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert f'filename="okey-{code}.csv"' in r["Content-Disposition"]
    return list(csv.reader(io.StringIO(r.content.decode())))


def sheet_totals(client, code):
    page = client.get(reverse("games:sheet", args=[code])).content.decode()
    return [int(x) for x in re.findall(r'data-testid="sheet-total"><b>(-?\d+)</b>', page)]


def test_csv_equals_the_sheet_lines_and_totals(client):
    table = play_game(solo_table(competitive=True), hands=2)
    names = [s.display_name() for s in table.seats.all()]
    rows = read_csv(client, table.code)
    assert rows[0] == [
        "hand",
        "player",
        "points",
        "reason",
        "code",
        "show_me",
        "mode",
        "verified",
    ]
    lines = ScoreLine.objects.filter(hand__table=table).order_by("hand__number", "id")
    assert lines.count() > 0
    expected = [
        [
            str(x.hand.number + 1),
            names[x.seat],
            str(x.points),
            str(reason_label(x.reason)),
            x.reason,
            "",
            "challenge",
            "",  # not finished: not verified yet
        ]
        for x in lines
    ]
    assert rows[1 : 1 + len(expected)] == expected
    totals = rows[1 + len(expected) :]
    assert totals == [
        ["total", name, str(t), "", "", "0", "challenge", ""]
        for name, t in zip(names, sheet_totals(client, table.code), strict=True)
    ]
    assert [int(t[2]) for t in totals] == actions.game_for(table).totals()
    # per player, the lines add up to the total (seventeen starts from 0)
    for name, total in zip(names, sheet_totals(client, table.code), strict=True):
        assert sum(int(r[2]) for r in rows[1 : 1 + len(expected)] if r[1] == name) == total


def test_csv_of_a_fresh_table_has_only_totals(client):
    table = solo_table(variant="classic")
    rows = read_csv(client, table.code)
    assert rows[0][0] == "hand" and [r[0] for r in rows[1:]] == ["total"] * 4
    assert [int(r[2]) for r in rows[1:]] == [20] * 4  # classic counts down from 20


def test_csv_of_an_unknown_table_is_404(client):
    assert client.get("/t/nope/sheet.csv").status_code == 404


def test_result_page_links_the_csv(client):
    table = solo_table()
    play_hand(table)
    page = client.get(reverse("solo:result", args=[table.code])).content.decode()
    assert reverse("solo:sheet_csv", args=[table.code]) in page


FORMULAS = ['=HYPERLINK("http://evil.example/","click")', "+1+1", "-2+3", "@SUM(A1:A2)", "\tx"]


@pytest.mark.parametrize("name", FORMULAS)
def test_a_display_name_that_starts_like_a_formula_is_text_in_the_csv(client, name):
    """OWASP CSV injection: a spreadsheet must show the name, never run it."""
    table = solo_table(variant="classic")
    seat = table.seats.get(position=1)
    seat.name = name
    seat.save(update_fields=["name"])
    rows = read_csv(client, table.code)
    totals = {r[1]: r for r in rows[1:]}
    assert "'" + name in totals  # neutralised with a leading quote, the name kept whole
    assert name not in totals
    assert totals["'" + name][2] == "20"  # numbers stay numbers


def test_negative_points_stay_numbers_in_the_csv(client):
    table = play_game(solo_table(), hands=1)
    rows = read_csv(client, table.code)
    points = [r[2] for r in rows[1:]]
    assert any(p.startswith("-") for p in points)  # the finisher's −base/10
    assert all(re.fullmatch(r"-?\d+", p) for p in points)


def test_the_one_csv_helper_neutralises_every_formula_start():
    from games.common.csvsafe import cell, write_rows

    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert cell(start + "1") == "'" + start + "1"
    assert cell("Ayşe") == "Ayşe" and cell("a=b") == "a=b"
    assert cell(-2) == -2 and cell(2.5) == 2.5 and cell(None) == ""
    assert cell(True) == "True"  # a bool is text, not a number
    text = write_rows([["name", "points"], ['=1+"x"', -4]])
    assert list(csv.reader(io.StringIO(text))) == [["name", "points"], ['\'=1+"x"', "-4"]]
