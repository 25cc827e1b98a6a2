"""Every WebSocket route of the site."""

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/match/<str:public_id>/", TableConsumer.as_asgi()),
]
