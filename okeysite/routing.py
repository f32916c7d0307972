"""Websocket routes, mounted by okeysite.asgi under AllowedHostsOriginValidator and
AuthMiddlewareStack."""

from django.urls import path

from games.live import consumers
from games.tournaments import consumers as tournament_consumers
from games.watch import consumers as watch_consumers

websocket_urlpatterns = [
    path("ws/t/<str:code>/", consumers.TableConsumer.as_asgi()),
    path("ws/tournament/<int:pk>/", tournament_consumers.StandingsConsumer.as_asgi()),
    path("ws/lobby/", watch_consumers.LobbyConsumer.as_asgi()),
]
