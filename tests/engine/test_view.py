"""view_for: exactly the per-seat information of rules.md §1."""

from __future__ import annotations

import json

import pytest

from games.engine import apply, new_hand, view_for
from games.engine.simulate import play_hand
from games.engine.testing import make_state, tile


def test_seat_view_shows_own_rack_and_counts_only():
    s = new_hand("classic", None, "view-seed", 0)
    v = view_for(s, 2)
    assert [t["id"] for t in v["rack"]] == list(s.racks[2])
    assert v["rack_counts"] == [15, 14, 14, 14]
    assert v["pile_count"] == 48 and "pile" not in v
    assert v["indicator"]["id"] == s.indicator
    assert v["okey"][0] == v["indicator"]["t"][0]
    assert v["seat"] == 2 and v["turn"] == 0 and v["phase"] == "play"
    assert v["revealed"] is None and v["result"] is None and not v["over"]
    assert "view-seed" not in json.dumps(v)


def test_spectator_sees_no_rack_and_no_legal_actions():
    s = new_hand("rummy", {"players": 3}, "spec", 1)
    v = view_for(s, None)
    assert v["rack"] is None and v["legal"] == [] and v["rack_counts"] == [14, 15, 14]


def test_legal_types_follow_the_turn():
    s = new_hand("fifty-one", None, "legal", 0)
    assert "discard" in view_for(s, 0)["legal"] and "open" in view_for(s, 0)["legal"]
    assert "draw" not in view_for(s, 0)["legal"]
    assert view_for(s, 1)["legal"] == ["arrange"]
    s2, _ = apply(s, {"type": "discard", "seat": 0, "tile": s.racks[0][0]})
    assert {"draw", "take"} <= set(view_for(s2, 1)["legal"])


def test_melds_show_what_okeys_play_and_their_points():
    s = make_state(
        "fifty-one",
        ["R1", None, None, None],
        indicator="K12",
        melds=[{"owner": 1, "tiles": "B5 K13 B7"}],
        turn=0,
        phase="play",
    )
    v = view_for(s, 0)
    (m,) = v["melds"]
    assert [t["plays"] for t in m["tiles"]] == ["B5", "B6", "B7"]
    assert m["points"] == 18 and m["owner"] == 1 and v["opened"][1] == "melds"
    assert v["opening_min"] == {"melds": 51, "pairs": 0}


def test_assisted_marks_penalty_tiles_only_when_assisted():
    kw = dict(
        indicator="K12",
        melds=[{"owner": 1, "tiles": "B5 B6 B7"}],
        turn=0,
        phase="play",
    )
    s = make_state("fifty-one", ["B8 R1", None, None, None], **kw)
    assert "penalty_tiles" not in view_for(s, 0)
    s = make_state("fifty-one", ["B8 R1", None, None, None], options={"assisted": True}, **kw)
    assert view_for(s, 0)["penalty_tiles"] == [tile(s, 0, "B8")]


def test_flipped_okey_is_face_down_in_its_owners_view():
    s = make_state("seventeen", ["K5 R1", None, None, None], indicator="K4", turn=1)
    okey = tile(s, 0, "K5")
    s2, _ = apply(s, {"type": "flip", "seat": 0, "tile": okey})
    rack = {t["id"]: t for t in view_for(s2, 0)["rack"]}
    assert rack[okey]["face_down"] and rack[okey]["okey"]
    s3, _ = apply(s2, {"type": "flip", "seat": 0, "tile": okey})
    assert not {t["id"]: t for t in view_for(s3, 0)["rack"]}[okey]["face_down"]


@pytest.mark.parametrize("variant", ["classic", "rummy", "fifty-one", "seventeen"])
def test_after_the_hand_every_rack_and_the_seed_are_revealed(variant):
    s = play_hand(variant, None, "reveal-me")
    v = view_for(s, None)
    assert v["over"] and v["result"]["ending"]
    assert v["revealed"]["seed"] == "reveal-me"
    assert [[t["id"] for t in r] for r in v["revealed"]["racks"]] == [list(r) for r in s.racks]
    json.dumps(v)  # JSON-ready


def test_score_lines_carry_reasons_and_no_tile_ids():
    s = make_state(
        "fifty-one",
        ["B8 R1 R2", None, None, None],
        indicator="K12",
        melds=[{"owner": 1, "tiles": "B5 B6 B7"}, {"owner": 0, "tiles": "Y1 Y2 Y3"}],
        turn=0,
        phase="play",
    )
    s2, _ = apply(s, {"type": "discard", "seat": 0, "tile": tile(s, 0, "B8")})
    line = view_for(s2, 1)["scores"][0]
    assert line == {"seat": 0, "points": 100, "reason": "penalty_tile", "detail": {"tile": "B8"}}


def test_taken_discard_is_shown_to_its_taker_only():
    s = make_state(
        "fifty-one",
        ["B1 K2 K3", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "B11 B12 B13"}],
        takeable="B10",
        turn=0,
        phase="draw",
    )
    v = view_for(s, 0)
    assert v["takeable"]["t"] == "B10" and v["takeable_from"] == 3
    s2, _ = apply(s, {"type": "take", "seat": 0})
    assert view_for(s2, 0)["taken"]["t"] == "B10" and "undo" in view_for(s2, 0)["legal"]
    assert view_for(s2, 1)["taken"] is None and view_for(s2, 1)["must_use_taken"]
