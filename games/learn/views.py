"""Learn: the lessons' page and "Start" (a POST that opens the lesson's table)."""

from __future__ import annotations

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import throttle
from games.engine.rules import RULES
from games.learn import actions as learn_actions
from games.learn.script import SCRIPTS
from games.live import actions
from games.live.messages import refusal_text
from games.views import PLAY_NOW_PRESSES, PLAY_NOW_REFUSED


def _guest_key(request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def index(request: HttpRequest) -> HttpResponse:
    lessons = [
        {"slug": s.slug, "name": gettext(RULES[s.variant].label), "lays_down": s.lays_down}
        for s in SCRIPTS.values()
        if s.variant in RULES
    ]
    return render(request, "learn/index.html", {"lessons": lessons})


@require_POST
def start(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Start the lesson": opens the lesson's table. Each start deals a table, so starts
    count with the home page's "Play now" presses (``PLAY_NOW_PRESSES``, per account or,
    for a guest, per address): a refused one opens nothing."""
    if slug not in SCRIPTS or SCRIPTS[slug].variant not in RULES:
        raise Http404("no such lesson")
    who = f"u:{request.user.pk}" if request.user.is_authenticated else throttle.client_ip(request)
    if throttle.at_limit(PLAY_NOW_PRESSES, who):
        flash.error(request, PLAY_NOW_REFUSED)
        return redirect("learn:index")
    throttle.hit(PLAY_NOW_PRESSES, who)
    try:
        table = learn_actions.do_start_lesson(
            slug, user=request.user, guest_key=_guest_key(request)
        )
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
        return redirect("learn:index")
    return redirect("games:table", code=table.code)
