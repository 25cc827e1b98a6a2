"""ASGI entry point for daphne: HTTP through Django, WebSockets through Channels."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "truco_site.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.table.sweeper import StartSweeper  # noqa: E402
from truco_site.routing import websocket_urlpatterns  # noqa: E402

application = StartSweeper(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)

# Everything imported so far lives as long as the process: move it out of the cyclic collector's
# reach, so that each full collection walks only what serving created (docs/performance.md).
gc.freeze()
