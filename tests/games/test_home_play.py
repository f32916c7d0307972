"""The home page's first screen: "Play now" (one click to a dealt casual table against
CPUs, in the visitor's last rule set, assisted at their first tables), "Resume your game"
(the visitor's unfinished tables) and the new-table form folded behind "More options"
(docs/first-ten-minutes.md)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.forms import defaults_summary
from games.live import actions
from games.models import Table
from tests.games.conftest import cpu_table
from tests.support.accounts import logged_in, make_user

pytestmark = pytest.mark.django_db

PLAY = reverse("games:play")


@pytest.fixture(autouse=True)
def _fresh_press_counts():
    """The presses of Play now are counted in the cache (``PLAY_NOW_PRESSES``), per address:
    every test client here comes from one address."""
    cache.clear()
    yield
    cache.clear()


def resume_codes(html: str) -> list[str]:
    """The table codes the home page's "Resume your game" list links to."""
    box = re.search(r'data-testid="resume".*?</ul>', html, re.S)
    return re.findall(r'data-testid="resume-([\w-]+)"', box.group(0)) if box else []


def test_a_fresh_guest_gets_a_dealt_casual_table_against_three_medium_cpus_in_one_post():
    client = Client()
    response = client.post(PLAY)
    table = Table.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.code])
    # the guest's session is started by the press, and the seat is theirs by it
    key = client.session.session_key
    assert key and "sessionid" in response.cookies
    seats = list(table.seats.order_by("position"))
    assert seats[0].guest_key == key and seats[0].user is None and not seats[0].is_cpu
    assert [(s.is_cpu, s.cpu_level) for s in seats[1:]] == [(True, "medium")] * 3
    # classic the first time; dealt at once; casual; no turn clock for one person
    assert table.variant == "classic" and table.status == Table.Status.PLAYING
    assert table.hands.count() == 1
    assert not table.rated and not table.quick_match and not table.public
    assert not table.options.get("clock")
    # a guest's first tables are assisted
    assert table.options["assisted"] is True
    # the table page shows the guest their own rack (they are seated, not watching)
    page = client.get(response.url).content.decode()
    rack = re.search(r'id="t-rack".*?</section>', page, re.S).group(0)
    assert len(re.findall(r'data-id="(\d+)"', rack)) in (14, 15)


def test_play_now_is_a_post():
    assert Client().get(PLAY).status_code == 405
    assert not Table.objects.exists()


def test_play_now_opens_the_rule_set_of_the_visitors_most_recent_table():
    client = Client()
    client.post(
        reverse("games:create"),
        {"variant": "rummy", "seat_1": "cpu:easy", "seat_2": "cpu:easy", "seat_3": "cpu:easy"},
    )
    assert "Okey Rummy against 3 computer players" in client.get("/").content.decode()
    client.post(PLAY)
    newest = Table.objects.order_by("-pk").first()
    assert newest.variant == "rummy" and newest.seats.count() == 4
    # someone else's tables do not count: a fresh guest still gets classic
    other = Client()
    other.post(PLAY)
    assert Table.objects.order_by("-pk").first().variant == "classic"


def test_an_account_without_a_finished_table_gets_the_aids_then_its_own_default():
    user = make_user("ayse")
    client = logged_in(user)
    client.post(PLAY)
    first = Table.objects.get()
    assert first.created_by == user and first.seats.get(position=0).user == user
    assert first.options["assisted"] is True  # no finished table yet
    Table.objects.filter(pk=first.pk).update(status=Table.Status.FINISHED)
    client.post(PLAY)
    assert Table.objects.order_by("-pk").first().options["assisted"] is False  # Profile default
    user.profile.assisted_default = True
    user.profile.save()
    client.post(PLAY)
    assert Table.objects.order_by("-pk").first().options["assisted"] is True


def test_resume_lists_the_guests_unfinished_tables_only():
    client = Client()
    client.post(PLAY)
    playing = Table.objects.get()
    key = client.session.session_key
    finished = cpu_table(guest_key=key)
    abandoned = cpu_table(guest_key=key)
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)
    Table.objects.filter(pk=abandoned.pk).update(status=Table.Status.ABANDONED)
    waiting = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        guest_key=key,
    )
    html = client.get("/").content.decode()
    assert set(resume_codes(html)) == {playing.code, waiting.code}
    assert f'href="/t/{playing.code}/"' in html
    # another guest sees none of them, and no Resume box at all
    assert resume_codes(Client().get("/").content.decode()) == []


def test_resume_lists_an_accounts_tables_but_not_a_forfeited_seat():
    user = make_user("mehmet")
    client = logged_in(user)
    mine = cpu_table(user=user, guest_key="")
    gone = cpu_table(user=user, guest_key="")
    gone.seats.filter(user=user).update(forfeited_at=gone.created_at)
    cpu_table(guest_key="somebody-else")
    assert resume_codes(client.get("/").content.decode()) == [mine.code]


def test_first_screen_has_play_now_and_the_folded_form_in_every_language():
    client = Client()
    for code, _name in settings.LANGUAGES:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
        html = client.get("/").content.decode()
        assert f'<html lang="{code}"' in html
        hero = re.search(r'<section class="hero felt">.*?</section>', html, re.S).group(0)
        assert f'action="{PLAY}"' in hero and 'data-testid="play-cpu"' in hero
        # the quick match comes right after the hero, the new-table form behind a fold
        assert html.index('data-testid="quick-match"') < html.index('data-testid="solo-cta"')
        fold = re.search(r'<details[^>]*data-testid="more-options".*?</details>', html, re.S)
        assert fold and 'data-testid="create-submit"' in fold.group(0)
        assert "<details" in fold.group(0) and " open" not in fold.group(0).split(">")[0]
    assert "sessionid" not in client.cookies  # looking starts no session


def test_more_options_summary_names_the_forms_defaults():
    html = Client().get("/").content.decode()
    summary = re.search(r'data-testid="more-options-defaults">([^<]*)<', html).group(1)
    assert summary == defaults_summary() == "Classic · 4 seats · medium CPUs · 30 s clock"
    # and these are the values the folded form's fields start at
    assert re.search(r'<option value="classic" selected>', html)
    assert re.search(r'name="classic__clock"[^>]*>.*?<option value="30" selected>', html, re.S)
    assert re.search(r'name="seat_1"[^>]*>.*?<option value="cpu:medium" selected>', html, re.S)


def test_play_now_presses_are_limited_per_player(settings):
    settings.PLAY_NOW_LIMIT = 2
    for _ in range(2):  # two guests from one address
        assert Client().post(PLAY).status_code == 302
    assert Table.objects.count() == 2
    refused = Client().post(PLAY)
    assert refused.url == reverse("home") and Table.objects.count() == 2
    # an account is counted on its own
    logged_in(make_user("deniz")).post(PLAY)
    assert Table.objects.count() == 3
