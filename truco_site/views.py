"""Site-wide pages: home, the health probe, the favicon and uploaded media."""

import asyncio
import sys
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import OperationalError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.static import serve
from psycopg_pool import PoolTimeout

from games import selectors as game_selectors
from games.forms import last_options, options_summary
from rooms import selectors as room_selectors
from rooms.rendering import home_rooms_waiting
from shop import selectors as shop_selectors
from stats import selectors as stats_selectors
from truco_site.postgresql.errors import DatabaseUnreachable

# Each part of the health check answers within this or counts as down: a proxy asks often and must
# hear back at once, also when the database cannot be reached (issue 28: it took 10 s).
HEALTH_TIMEOUT_S = 0.5


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
    return serve(request, path, document_root=settings.MEDIA_ROOT)  # type: ignore[arg-type]  # a Path works


def server_error(request):
    """The page for an error no view handled (handler500; with DEBUG on Django shows its own instead).

    503 when the database could not be had (it cannot be reached, or every pooled connection stayed
    busy for DATABASE_POOL_TIMEOUT_S): the site is unavailable for a moment, not broken. Rendered
    without the request's context processors, which read the database.
    """
    error = sys.exception()
    if database_unavailable(error):
        status, title = 503, _("The site is unavailable for a moment")
        message = _("We cannot reach our database right now. Please try again in a few seconds.")
    else:
        status, title = 500, _("Something went wrong")
        message = _("Something went wrong on our side. Please try again; if it keeps happening, come back later.")
    try:
        html = render_to_string("error.html", {"status": status, "title": title, "message": message})
    except Exception:  # the error page itself must not fail (e.g. static files not collected)
        html = format_html(
            '<!DOCTYPE html><title>{}</title><h1>{}</h1><p data-error="{}">{}</p>', title, title, status, message
        )
    response = HttpResponse(html, status=status)
    if status == 503:
        response["Retry-After"] = "5"
    return response


def database_unavailable(error: BaseException | None) -> bool:
    """A database error that means no connection could be had (Django wraps the driver's error)."""
    return isinstance(error, OperationalError) and isinstance(error.__cause__, DatabaseUnreachable | PoolTimeout)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False
    finally:
        connection.close()  # this thread's (pooled) connection goes back at once


async def _database_answers() -> bool:
    # In a thread of its own (not the one shared thread Django runs sync code in), so that a database
    # slow to answer holds only this check: it is abandoned after HEALTH_TIMEOUT_S and ends by itself
    # within one connection attempt (DATABASE_CONNECT_TIMEOUT_S).
    try:
        return await asyncio.wait_for(sync_to_async(_database_ok, thread_sensitive=False)(), HEALTH_TIMEOUT_S)
    except TimeoutError:
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
    database, channel_layer = await asyncio.gather(_database_answers(), _channel_layer_ok())
    healthy = database and channel_layer
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "database": "ok" if database else "unavailable",
            "channel_layer": "ok" if channel_layer else "unavailable",
        },
        status=200 if healthy else 503,
    )
