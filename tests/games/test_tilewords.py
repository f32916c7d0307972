"""Tiles named in words in the reader's language, never in notation; the table's
tile marks (okey standing in, meld owner, drawn tile, latest discard, hint), its
screen-reader labels and announcements, and the tile colours' contrast."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.engine.bots.hint import hint
from games.engine.testing import make_state
from games.engine.tiles import COLOURS, kind_notation
from games.live import actions, messages, presenter, realtime
from games.templatetags.okey_tiles import tile_html
from games.tilewords import tile_label, tile_words
from tests.games.conftest import cpu_table

LANGS = ("en", "es", "de", "tr")
NOTATION = re.compile(r"\b[RYBK]\d{1,2}\b")
ALL_KINDS = [kind_notation(k) for k in range(53)]  # 52 numbered kinds and F
ROOT = Path(__file__).resolve().parents[2]

# The natural form per language (colour first in en/tr, the adjective before
# the number in de — die Sechs —, the number first in es).
EXPECTED = {
    "en": {"K6": "black 6", "R7": "red 7", "Y1": "yellow 1", "B13": "blue 13", "F": "false joker"},
    "es": {
        "K6": "6 negro",
        "R7": "7 rojo",
        "Y1": "1 amarillo",
        "B13": "13 azul",
        "F": "comodín falso",
    },
    "de": {
        "K6": "schwarze 6",
        "R7": "rote 7",
        "Y1": "gelbe 1",
        "B13": "blaue 13",
        "F": "falscher Joker",
    },
    "tr": {"K6": "siyah 6", "R7": "kırmızı 7", "Y1": "sarı 1", "B13": "mavi 13", "F": "sahte okey"},
}
GREEN = {"en": "green 4", "es": "4 verde", "de": "grüne 4", "tr": "yeşil 4"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_tile_has_words_in_every_language(lang):
    with translation.override(lang):
        for t in ALL_KINDS:
            for variant in ("classic", "rummy"):
                words = tile_words(t, variant)
                assert words and words != t and not NOTATION.search(words), (t, words)
                if t != "F":
                    assert str(int(t[1:])) in words.split(), (t, words)
        for t, words in EXPECTED[lang].items():
            assert tile_words(t) == words
        # Okey Rummy shows its yellow tiles green, and names them so
        assert tile_words("Y4", "rummy") == GREEN[lang]
        # the four colours are four different words
        assert len({tile_words(f"{c}5") for c in COLOURS}) == 4


def test_labels_say_okey_and_what_it_stands_for():
    with translation.override("en"):
        assert tile_label({"t": "R7"}) == "red 7"
        assert tile_label({"t": "B3", "okey": True}) == "okey (blue 3)"
        assert tile_label({"t": "B3", "okey": True, "plays": "K13"}) == "okey, stands for black 13"
        assert tile_label({"t": "F", "plays": "B3"}) == "false joker, stands for blue 3"
        assert tile_label({"t": "B3", "okey": True, "face_down": True}) == "face-down tile"
    with translation.override("tr"):
        assert tile_label({"t": "B3", "okey": True, "plays": "K13"}) == "okey, siyah 13 yerine"


def test_an_okey_in_a_meld_shows_the_tile_it_stands_for():
    with translation.override("en"):
        html = tile_html(
            {"id": 5, "t": "B3", "okey": True, "plays": "K13", "css": "c-b", "symbol": "◆"}
        )
    assert "stands-in" in html and "is-okey" in html and "c-k" in html and "c-b" not in html
    assert 'aria-label="okey, stands for black 13"' in html
    assert '<span class="num" aria-hidden="true">13</span>' in html
    plain = tile_html(
        {"id": 7, "t": "K13", "number": "13", "plays": "K13", "css": "c-k", "symbol": "♠"}
    )
    assert "stands-in" not in plain and '<span class="num" aria-hidden="true">13</span>' in plain


def test_hints_name_tiles_in_words():
    detail = {"tile": "K6", "leftover": 3}
    with translation.override("en"):
        text = messages.hint_text("discard_loose", detail)
        assert text.startswith("Discard black 6:") and not NOTATION.search(text)
        text = messages.hint_text("discard_safe", {"tile": "K6", "avoid": "R7"})
        assert "black 6" in text and "red 7" in text and not NOTATION.search(text)
        assert messages.hint_action_label("discard", "K6") == "Discard black 6"
        assert messages.hint_action_label("take", "Y4", "rummy") == "Take green 4"
    with translation.override("tr"):
        assert "siyah 6" in messages.hint_text("discard_loose", detail)


# ------------------------------------------------------------------ rendered table


def visible_text_and_labels(html: str) -> str:
    """What a player sees or hears: text, aria-labels and titles (not data-t)."""
    labels = re.findall(r'(?:aria-label|title)="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    return htmllib.unescape(" ".join([text, *labels]))


def frame_for(table, position: int, lang: str, hint_for_seat: dict | None = None) -> str:
    seat = table.seats.get(position=position)
    with translation.override(lang):
        ctx = presenter.table_context(table, seat, hint=hint_for_seat)
        html, _ = realtime.live_frame(ctx, None, lang)
    return html


def use_state(monkeypatch, table, state) -> None:
    """Render ``table`` as if its current hand were at ``state`` (a crafted
    position: melds with okeys, partners)."""
    hand, _state, game = actions.snapshot(table)
    monkeypatch.setattr(presenter, "snapshot", lambda t: (hand, state, game))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_no_notation_in_the_rendered_table(lang, monkeypatch):
    table = cpu_table("classic")
    state = actions.load_state(table.current_hand)
    me = 0
    # play until the human has a turn with a hint, then a few more moves
    for _ in range(40):
        table.refresh_from_db()
        state = actions.load_state(table.current_hand)
        if state.turn == me:
            break
        actions.sweep()
    h = hint(state, me) if state.turn == me else None
    html = frame_for(table, me, lang, h)
    shown = visible_text_and_labels(html)
    assert not NOTATION.search(shown), NOTATION.findall(shown)
    if h is not None:
        assert 'data-testid="hint-do"' in html

    # a lay-down position with an okey standing in a meld, partners
    t51 = cpu_table("fifty-one", partners=True)
    crafted = make_state(
        "fifty-one",
        ["R1 R2 R3 Y9 Y10 K4 K5 B11 B12 B13 F R11 Y2 K8 B8", None, None, None],
        indicator="B2",
        melds=[
            {"owner": 1, "tiles": "K13 B3 Y13", "plays": "K13 R13 Y13"},
            {"owner": 2, "tiles": "R5 R6 R7 R8"},
        ],
        opened=[None, "melds", "melds", None],
        options={"partners": True},
        turn=0,
    )
    use_state(monkeypatch, t51, crafted)
    html = frame_for(t51, 0, lang)
    shown = visible_text_and_labels(html)
    assert not NOTATION.search(shown), NOTATION.findall(shown)
    assert html.count("stands-in") == 1 and 'data-testid="meld-owner"' in html
    assert "team-2" in html and "team-1" in html


@pytest.mark.django_db
def test_melds_name_their_owner_and_team(monkeypatch):
    table = cpu_table("fifty-one", partners=True)
    crafted = make_state(
        "fifty-one",
        [None, None, None, None],
        indicator="B2",
        melds=[{"owner": 1, "tiles": "K13 B3 Y13", "plays": "K13 R13 Y13"}],
        opened=[None, "melds", None, None],
        options={"partners": True},
    )
    use_state(monkeypatch, table, crafted)
    owner = table.seats.get(position=1).display_name()
    html = frame_for(table, 0, "en")
    meld = re.search(r'<div class="meld drop[^"]*"[^>]*>.*?</div>', html, re.S).group(0)
    assert f"Run of {owner}" not in meld  # a group, not a run
    assert f'aria-label="Group of {owner} · team 2"' in meld
    assert 'aria-label="okey, stands for red 13"' in meld


@pytest.mark.django_db
def test_drawn_tile_is_marked_until_moved_and_only_for_its_seat():
    table = cpu_table("classic")
    for _ in range(60):  # to the human's draw
        table.refresh_from_db()
        state = actions.load_state(table.current_hand)
        if state.turn == 0 and state.phase == "draw":
            break
        if state.turn == 0:
            actions.do_submit_action(
                table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, table.version
            )
        else:
            actions.sweep()
    table.refresh_from_db()
    before = frame_for(table, 0, "en")
    assert "drawn-mark" not in before
    actions.do_submit_action(table.pk, 0, {"type": "draw"}, table.version)
    table.refresh_from_db()
    state = actions.load_state(table.current_hand)
    drawn = state.drawn
    html = frame_for(table, 0, "en")
    marked = re.findall(r'class="tile [^"]*\bdrawn\b[^"]*" data-id="(\d+)"', html)
    assert marked == [str(drawn)]
    assert "drawn" not in frame_for(table, 1, "en").split('id="t-rack"')[-1]
    # the player moves it: their saved order now holds it
    seat = table.seats.get(position=0)
    order = presenter.arrange_slots(list(state.racks[0]), seat.rack_order or [])
    order[-1], order[order.index(drawn)] = drawn, order[-1]
    actions.do_save_rack_order(seat.pk, order)
    assert "drawn-mark" not in frame_for(table, 0, "en")


@pytest.mark.django_db
def test_announcement_reads_the_opponents_move_and_whose_turn():
    table = cpu_table("classic")
    for _ in range(60):
        table.refresh_from_db()
        state = actions.load_state(table.current_hand)
        if state.turn == 0 and state.phase == "draw" and state.takeable is not None:
            break
        if state.turn == 0:
            actions.do_submit_action(
                table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, table.version
            )
        else:
            actions.sweep()
    cpu = table.seats.get(position=3).display_name()  # on the left: plays before
    words = tile_words(kind_notation(state.takeable >> 1 if state.takeable < 104 else 52))
    for lang, turn in (("en", "Your turn."),):
        html = frame_for(table, 0, lang)
        said = re.search(r'<div id="t-announce"[^>]*>(.*?)</div>', html, re.S).group(1)
        assert htmllib.unescape(said).strip() == f"{cpu} discarded {words}. {turn}"
    other = frame_for(table, 1, "en")
    said = re.search(r'<div id="t-announce"[^>]*>(.*?)</div>', other, re.S).group(1)
    me = table.seats.get(position=0).display_name()
    assert htmllib.unescape(said).strip() == f"{cpu} discarded {words}. {me}'s turn."


@pytest.mark.django_db
def test_hint_offers_its_move_in_one_click():
    table = cpu_table("classic")
    for _ in range(60):
        table.refresh_from_db()
        state = actions.load_state(table.current_hand)
        if state.turn == 0 and state.phase == "play":
            break
        if state.turn == 0:
            actions.do_submit_action(table.pk, 0, {"type": "draw"}, table.version)
        else:
            actions.sweep()
    h = hint(state, 0)
    html = frame_for(table, 0, "en", h)
    button = re.search(r'<button[^>]*data-hint-do="([^"]*)"[^>]*>([^<]*)</button>', html)
    fields = __import__("json").loads(htmllib.unescape(button.group(1)))
    assert fields["action"] == h["action"]["type"]
    if "tile" in h["action"]:
        assert fields["tile"] == h["action"]["tile"]
        assert button.group(2) == messages.hint_action_label(
            h["action"]["type"], kind_notation(h["action"]["tile"] >> 1)
        )


# ------------------------------------------------------------------ contrast (WCAG AA)


def _luminance(hex_colour: str) -> float:
    h = hex_colour.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _last_colour(css: str, selector: str) -> str:
    """The colour the last rule for exactly ``selector`` sets (the one that wins)."""
    found = re.findall(re.escape(selector) + r"\s*\{[^}]*?\bcolor:\s*(#[0-9a-fA-F]{6})", css)
    assert found, selector
    return found[-1]


def test_tile_faces_reach_wcag_aa_against_the_tile():
    css = (ROOT / "static/css/table.css").read_text()
    stops = re.search(r"\.tile \{[^}]*background: linear-gradient\((#\w{6}), (#\w{6})\)", css)
    assert stops, "the tile's background gradient"
    for selector in (
        ".tile.c-r",
        ".tile.c-y",
        ".tile.c-y.rummy",
        ".tile.c-b",
        ".tile.c-k",
        ".tile.c-f",
    ):
        colour = _last_colour(css, selector)
        for bg in stops.groups():
            # a small tile's number is normal-size text: 4.5:1
            assert contrast(colour, bg) >= 4.5, (selector, colour, bg, contrast(colour, bg))
    star = _last_colour(css, ".tile .okey-mark")
    for bg in stops.groups():
        assert contrast(star, bg) >= 3.0  # a graphic: 3:1


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["classic", "fifty-one"])
def test_no_notation_when_the_hand_is_over(variant):
    from tests.games.conftest import play_out_hand

    table = play_out_hand(cpu_table(variant))
    assert "revealed-seed" in frame_for(table, 0, "en")  # the outcome, every rack shown
    for lang in LANGS:
        shown = visible_text_and_labels(frame_for(table, 0, lang))
        assert not NOTATION.search(shown), (lang, NOTATION.findall(shown))


def _rule(css: str, selector: str) -> str:
    """The body of the last rule for exactly ``selector``."""
    found = re.findall(r"(?:^|\n|\}\s*)" + re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert found, selector
    return found[-1]


def _colour(value: str, variables: dict[str, str]) -> str:
    value = value.strip()
    m = re.fullmatch(r"var\((--[\w-]+)\)", value)
    return variables[m.group(1)] if m else value


@pytest.mark.parametrize(
    "selector",
    [
        ".meld-owner",
        ".meld.team-1 .meld-owner",
        ".meld.team-2 .meld-owner",
        ".tile .drawn-mark",
        ".tile.hinted::before",
    ],
)
def test_tile_marks_text_reaches_wcag_aa(selector):
    """The small texts on the table's marks (owner, team, "new", the hint's "?")."""
    site = (ROOT / "static/css/site.css").read_text()
    variables = dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})", site))
    css = (ROOT / "static/css/table.css").read_text()
    body = _rule(css, selector)
    bg = re.search(r"background:\s*([^;]+);", body)
    fg = re.search(r"(?<![-\w])color:\s*([^;]+);", body)
    base = _rule(css, ".meld-owner") if selector.startswith(".meld.team") else body
    fg = fg or re.search(r"(?<![-\w])color:\s*([^;]+);", base)
    assert bg and fg, selector
    ratio = contrast(_colour(fg.group(1), variables), _colour(bg.group(1), variables))
    assert ratio >= 4.5, (selector, ratio)


def test_a_hint_to_finish_with_the_okey_says_okey():
    view = {"rack": [{"id": 9, "t": "B3", "okey": True}], "takeable": None}
    with translation.override("en"):
        h = {"action": {"type": "close", "tile": 9}, "tiles": [9]}
        assert presenter.hint_action(h, view, "classic")["label"] == "Finish with okey (blue 3)"
        h = {"action": {"type": "discard", "tile": 9}, "tiles": [9]}
        assert presenter.hint_action(h, view, "classic")["fields"] == {
            "action": "discard",
            "tile": 9,
        }
