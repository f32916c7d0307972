from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views
from games import views as games_views

urlpatterns = [
    path("", games_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("games.review.urls")),
    path("", include("games.solo.urls")),
    path("", include("games.tournaments.urls")),
]
