"""The profile page's tokens (function views): make one (its secret is shown once, on the
page this answers) and revoke one. The list itself is the ``api_tokens`` tag's
(``templatetags/api_tokens.py``), which the profile template includes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.api import tokens
from games.api.forms import TokenForm


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("accounts:profile")
    try:
        token, secret = tokens.do_create_token(
            request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
        )
    except tokens.TokenRefused as e:
        if e.code == "too_many_tokens":
            messages.error(
                request,
                _("You have %(n)s tokens: revoke one before you make another.")
                % {"n": tokens.MAX_ACTIVE},
            )
        else:
            messages.error(request, _("That token could not be made."))
        return redirect("accounts:profile")
    response = render(request, "api/token_created.html", {"token": token, "secret": secret})
    add_never_cache_headers(response)  # the secret is on this page only
    return response


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        token = tokens.do_revoke_token(request.user, pk)
    except tokens.TokenRefused:
        messages.error(request, _("There is no such token."))
        return redirect("accounts:profile")
    messages.success(
        request, _("The token “%(name)s” was revoked: it works no more.") % {"name": token.name}
    )
    return redirect("accounts:profile")
