"""Websocket routes, mounted by okeysite.asgi under AllowedHostsOriginValidator and
AuthMiddlewareStack."""

from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/t/<str:code>/", consumers.TableConsumer.as_asgi()),
]
