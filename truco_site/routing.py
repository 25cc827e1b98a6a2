"""Every WebSocket route of the site."""

from django.urls import path, re_path

from devtools.floor import GroupRoundTrip
from games.table.consumers import AnalysisConsumer, TableConsumer
from rooms.consumers import AnnulConsumer, ChatConsumer, LobbyConsumer, NoticesConsumer, RoomConsumer
from truco_site.sockets import NoSuchSocket

websocket_urlpatterns = [
    path("ws/match/<public_id:public_id>/", TableConsumer.as_asgi()),
    path("ws/match/<public_id:public_id>/analysis/", AnalysisConsumer.as_asgi()),
    # The load test's floor (docs/performance.md): closes with 4404 unless settings.BENCH_ROUTES.
    path("ws/bench/floor/<int:group>/", GroupRoundTrip.as_asgi()),
    path("ws/rooms/", LobbyConsumer.as_asgi()),
    path("ws/notices/", NoticesConsumer.as_asgi()),
    path("ws/room/<room_code:code>/", RoomConsumer.as_asgi()),
    path("ws/room/<room_code:code>/chat/", ChatConsumer.as_asgi()),
    path("ws/room/<room_code:code>/annul/", AnnulConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),  # last: any other path closes with 4404
]
