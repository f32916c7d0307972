from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import cache_control

from accounts import views as accounts_views
from games import views as games_views


@cache_control(max_age=3600, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and crawlers ask for /favicon.ico whatever the page says: send them to the
    site's icon (static/favicon.svg, under its collected, hashed name)."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("", games_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("games.review.urls")),
    path("", include("games.solo.urls")),
    path("", include("games.tournaments.urls")),
    path("quick/", include("games.matchmaking.urls")),
    path("", include("games.watch.urls")),
    path("", include("games.clubs.urls")),
    path("", include("games.ratings.urls")),
    path("", include("games.fairplay.urls")),
    path("", include("games.learn.urls")),
    path("", include("games.insights.urls")),
    path("", include("games.ops.urls")),
    path("", include("games.handdb.urls")),
    path("", include("games.api.urls")),
]
