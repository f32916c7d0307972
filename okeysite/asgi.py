"""ASGI entry point: HTTP through Django, websockets through Channels.

Run with ``daphne okeysite.asgi:application``.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")

# Initialise Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

import games.routing  # noqa: E402
from okeysite.wsguard import WebsocketGuard  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The origin check first (the websocket's CSRF defence), then the guard's
        # bounds (okeysite/wsguard.py), then the session, the user and the consumers.
        "websocket": AllowedHostsOriginValidator(
            WebsocketGuard(AuthMiddlewareStack(URLRouter(games.routing.websocket_urlpatterns)))
        ),
    }
)
