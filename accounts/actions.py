"""The accounts' writes. Views parse and authorise; each ``do_*`` function here changes the
database, as every app's writes do (``games/live/actions/``, ``games/<app>/actions.py``).

A profile is made with its account (``signals.do_create_profile``, the ``post_save`` of
a user); the ``get_or_create`` below is for accounts made before profiles existed."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from .models import Profile


def do_ensure_profile(user: Any) -> Profile:
    """The account's profile, made if it has none."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def do_sign_up(form: Any, language: str) -> Profile:
    """A new account from a valid sign-up form, its profile with the form's display name
    and ``language`` (the page's), in one transaction."""
    with transaction.atomic():
        user = form.save()
        profile = do_ensure_profile(user)
        profile.display_name = form.cleaned_data["display_name"]
        profile.language = language
        profile.save()
    return profile


def do_save_profile(form: Any) -> Profile:
    """A valid profile form saved (display name, language, the account's e-mail)."""
    with transaction.atomic():
        return form.save()


def do_set_language(user: Any, language: str) -> None:
    """The profile's language (the language switch of a signed-in player)."""
    Profile.objects.filter(user=user).update(language=language)
