"""Every WebSocket route of the site; apps add theirs here."""

websocket_urlpatterns: list = []
