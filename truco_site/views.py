"""Site-wide pages: home, the health probe, the favicon and uploaded media."""

import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.static import serve

from games import selectors as game_selectors
from games.forms import last_options, options_summary
from rooms import selectors as room_selectors
from rooms.rendering import home_rooms_waiting
from shop import selectors as shop_selectors
from stats import selectors as stats_selectors

HEALTH_TIMEOUT_S = 2.0


def home(request):
    """Invites play: quick play with the last-used options; a signed-in player's balances and recent results."""
    options = last_options(request.session)
    context = {
        "quick_play": options,
        "quick_play_summary": options_summary(options),
        "rewards": game_selectors.reward_settings(),
        # Public rooms waiting for players: [{"name", "url", "detail"}] (an empty list says "none now");
        # leaderboard_top: [{"position", "name", "url", "points"}], the top of the all-time leaderboard.
        "rooms_waiting": home_rooms_waiting(room_selectors.waiting_public_rooms(limit=5)),
        "leaderboard_top": stats_selectors.top_of_leaderboard(),
    }
    if request.user.is_authenticated:
        context["balances"] = shop_selectors.balances(request.user)
        context["recent_results"] = game_selectors.recent_results(request.user)
    return render(request, "home.html", context)


def favicon(request):
    """Browsers and crawlers ask for /favicon.ico whatever the page links: send them the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)


def media(request, path: str):
    """Uploaded files from MEDIA_ROOT (read per request, so the setting can change under tests)."""
    return serve(request, path, document_root=settings.MEDIA_ROOT)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


async def _channel_layer_ok() -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        channel = await layer.new_channel("healthz.")
        token = uuid.uuid4().hex
        await asyncio.wait_for(layer.send(channel, {"type": "healthz", "token": token}), HEALTH_TIMEOUT_S)
        message = await asyncio.wait_for(layer.receive(channel), HEALTH_TIMEOUT_S)
        return message.get("token") == token
    except Exception:
        return False


async def healthz(request):
    """200 when the database and the channel layer both answer, 503 when either does not."""
    database = await sync_to_async(_database_ok)()
    channel_layer = await _channel_layer_ok()
    healthy = database and channel_layer
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "database": "ok" if database else "unavailable",
            "channel_layer": "ok" if channel_layer else "unavailable",
        },
        status=200 if healthy else 503,
    )
