"""The API (/api/: version 1's routes and OpenAPI document under /api/v1/, its rendered
docs at /api/docs, Swagger UI served from this site's static files, and a JSON 404 for
anything else under /api/, such as an unknown version /api/v2/) and the profile page's
token forms (/accounts/profile/tokens/...)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path, re_path

from games.api import bot_views, views
from games.api.api import api
from games.api.errors import json_404


def docs(request: HttpRequest) -> HttpResponse:
    return api.docs.render_page(request, api)


urlpatterns = [
    path("api/v1/", api.urls),
    path("api/docs", docs, name="api-docs"),
    path("api/docs/", docs),
    re_path(r"^api/.*$", json_404),
    # bot accounts (games/api/bot_views.py, docs/bots-api.md)
    path("bots/", bot_views.bots_page, name="bots"),
    path("accounts/profile/bot/", bot_views.bot_upgrade, name="bot-upgrade"),
    path("t/<str:code>/invite-bot/", bot_views.invite_bot, name="bot-invite"),
    path("accounts/profile/tokens/new/", views.token_create, name="api-token-create"),
    path("accounts/profile/tokens/<int:pk>/revoke/", views.token_revoke, name="api-token-revoke"),
]
