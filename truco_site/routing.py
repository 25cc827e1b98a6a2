"""Every WebSocket route of the site."""

from django.conf import settings
from django.urls import path, re_path

from games.consumers import TableConsumer
from truco_site.bench import GroupRoundTrip
from truco_site.sockets import NoSuchSocket

websocket_urlpatterns = [path("ws/match/<public_id:public_id>/", TableConsumer.as_asgi())]
if settings.BENCH_ROUTES:
    # The load test's floor (docs/performance.md); never on unless the setting says so.
    websocket_urlpatterns.append(path("ws/bench/floor/<int:group>/", GroupRoundTrip.as_asgi()))
websocket_urlpatterns.append(re_path(r"", NoSuchSocket.as_asgi()))  # last: any other path closes with 4404
