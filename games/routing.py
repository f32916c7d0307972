"""Websocket routes, mounted by okeysite.asgi under AllowedHostsOriginValidator and
AuthMiddlewareStack. The table consumer's routes go here, e.g.

    path("ws/table/<int:table_id>/", consumers.TableConsumer.as_asgi()),
"""

websocket_urlpatterns: list = []
