"""Websocket routes, mounted by okeysite.asgi (behind the origin and websocket guards and
AuthMiddlewareStack): the live table's, and those the sub-apps bring, as
``okeysite/urls.py`` mounts their pages."""

from django.urls import path

from games.live import consumers
from games.tournaments import consumers as tournament_consumers
from games.watch import consumers as watch_consumers

websocket_urlpatterns = [
    path("ws/t/<str:code>/", consumers.TableConsumer.as_asgi()),
    path("ws/tournament/<int:pk>/", tournament_consumers.StandingsConsumer.as_asgi()),
    path("ws/lobby/", watch_consumers.LobbyConsumer.as_asgi()),
]
