"""The WebSocket answer for a path no route matches (e.g. junk in a match id)."""

from channels.generic.websocket import AsyncWebsocketConsumer

CLOSE_NOT_FOUND = 4404


class NoSuchSocket(AsyncWebsocketConsumer):
    """Accept, then close with 4404: a clear code, where an unmatched route would log a traceback."""

    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)
