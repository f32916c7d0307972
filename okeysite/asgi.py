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

import okeysite.routing  # noqa: E402
from okeysite.wsguard import OriginGuard, WebsocketGuard  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The origin check first (the websocket's CSRF defence: scheme, host and port of
        # the page must be the site's own, okeysite/wsguard.py OriginGuard), then the
        # guard's bounds, then the session, the user and the consumers.
        "websocket": OriginGuard(
            WebsocketGuard(AuthMiddlewareStack(URLRouter(okeysite.routing.websocket_urlpatterns)))
        ),
    }
)
