from django.contrib import admin
from django.urls import include, path

from games import views as games_views

urlpatterns = [
    path("", games_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("games.review.urls")),
    path("", include("games.solo.urls")),
]
