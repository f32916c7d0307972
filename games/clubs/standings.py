"""The club's results read from the tournaments app.

Each finished tournament's final order comes from ``games.tournaments.actions.standings``
(its own standings with every tie-break); nothing here ranks a tournament again.

Who is who across tournaments (a ``PlayerKey``):

* an entry with an account is that account, ``("user", user_id)``;
* a name-only entry is ``("name", casefolded name)`` (its history in the club is kept by
  name), unless an organiser linked that name to a member (``NameLink``): then it is that
  member's account. Names are never matched to accounts by themselves: anyone can type a
  name at registration, so only an organiser may say whose it is.

If one player appears twice in a tournament under one key (an account entry and a linked
name entry), the better place counts once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model

from games.tournaments import actions as tournament_actions
from games.tournaments.models import Tournament

from . import ranking
from .models import Club, NameLink, Season, SeasonTournament

PlayerKey = tuple[str, Any]


def name_key(name: str) -> str:
    return name.casefold()


def user_key(user_id: int) -> PlayerKey:
    return ("user", user_id)


def entry_key(user_id: int | None, name: str, links: dict[str, int]) -> PlayerKey:
    if user_id is not None:
        return user_key(user_id)
    key = name_key(name)
    if key in links:
        return user_key(links[key])
    return ("name", key)


def key_slug(key: PlayerKey) -> str:
    """The key as it appears in a page address (``u12`` or ``n:ayşe``)."""
    return f"u{key[1]}" if key[0] == "user" else f"n:{key[1]}"


def parse_key_slug(slug: str) -> PlayerKey | None:
    if slug.startswith("n:") and len(slug) > 2:
        return ("name", name_key(slug[2:]))
    if slug.startswith("u") and slug[1:].isdigit():
        return user_key(int(slug[1:]))
    return None


def club_links(club: Club) -> dict[str, int]:
    return dict(NameLink.objects.filter(club=club).values_list("key", "user_id"))


@dataclass(frozen=True)
class Counted:
    """A season's tournament as the ranking reads it."""

    link: SeasonTournament
    order: list[tuple[PlayerKey, bool, str]]  # (player, drawn with next, name in it)


def _tournament_order(t: Tournament, links: dict[str, int]) -> list[tuple[PlayerKey, bool, str]]:
    """Players of a finished tournament, best first (only those who played a table)."""
    entries = {str(e.pk): e for e in t.entries.all()}
    rows = [r for r in tournament_actions.standings(t) if r.played > 0 and r.player in entries]
    out: list[tuple[PlayerKey, bool, str]] = []
    seen: set[PlayerKey] = set()
    for i, row in enumerate(rows):
        e = entries[row.player]
        key = entry_key(e.user_id, e.name, links)
        drawn = row.decided_by == "draw" and i + 1 < len(rows)
        if key in seen:  # the same player twice: the better place counts
            if out:  # the tie around the skipped row holds only if it ran on through it
                out[-1] = (out[-1][0], out[-1][1] and drawn, out[-1][2])
            continue
        seen.add(key)
        out.append((key, drawn, e.name))
    if out:
        out[-1] = (out[-1][0], False, out[-1][2])
    return out


def counted(links_qs: Iterable[SeasonTournament], club: Club) -> list[Counted]:
    """The finished tournaments among ``links_qs``, with their final orders."""
    names = club_links(club)
    out = []
    for link in links_qs:
        t = link.tournament
        if t.status != Tournament.Status.FINISHED:
            continue
        out.append(Counted(link, _tournament_order(t, names)))
    return out


def results(items: Iterable[Counted]) -> list[ranking.Result]:
    out = []
    for item in items:
        n = len(item.order)
        if n < 2:
            continue
        places = ranking.shared_places([(key, drawn) for key, drawn, _ in item.order])
        t = item.link.tournament
        for key, _drawn, _name in item.order:
            out.append(
                ranking.Result(
                    tournament=item.link.pk,
                    date=t.date,
                    player=key,
                    rank=places[key],
                    n=n,
                    weight=Fraction(str(item.link.weight)),
                )
            )
    return out


def season_links(season: Season):
    return SeasonTournament.objects.filter(season=season).select_related("tournament", "season")


def club_links_qs(club: Club):
    return SeasonTournament.objects.filter(season__club=club).select_related("tournament", "season")


def season_date(season: Season, today: dt.date) -> dt.date:
    """A season is ranked on today's date while it runs, and on its last day after."""
    return min(today, season.end)


def labels(club: Club, items: Iterable[Counted]) -> dict[PlayerKey, str]:
    """What each player is called on the club's pages: an account's display name; a name
    entry's name as last written."""
    out: dict[PlayerKey, str] = {}
    user_ids: set[int] = set()
    for item in sorted(items, key=lambda c: (c.link.tournament.date, c.link.pk)):
        for key, _drawn, name in item.order:
            if key[0] == "user":
                user_ids.add(key[1])
            else:
                out[key] = name
    user_ids |= set(club.memberships.values_list("user_id", flat=True))
    for user in get_user_model().objects.filter(pk__in=user_ids).select_related("profile"):
        profile = getattr(user, "profile", None)
        out[user_key(user.pk)] = profile.name if profile is not None else user.get_username()
    return out
