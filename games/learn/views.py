"""Learn: the lessons' page and "Start" (a POST that opens the lesson's table)."""

from __future__ import annotations

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.engine.rules import RULES
from games.learn import actions as learn_actions
from games.learn.script import SCRIPTS
from games.live import actions
from games.live.messages import refusal_text


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
    if slug not in SCRIPTS or SCRIPTS[slug].variant not in RULES:
        raise Http404("no such lesson")
    try:
        table = learn_actions.do_start_lesson(
            slug, user=request.user, guest_key=_guest_key(request)
        )
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
        return redirect("learn:index")
    return redirect("games:table", code=table.code)
