"""Junk in a URL's path parameters (a NUL byte, broken UTF-8, ...) is a 404, never a 500: on every route.

PostgreSQL refuses a NUL byte in a query parameter (DataError), so a `str` parameter that reached the
database answered 500. The routes are walked from the URL conf, so a route added later is covered too.
"""

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import URLPattern, URLResolver, get_resolver

from truco_site.asgi import application
from truco_site.sockets import CLOSE_NOT_FOUND

JUNK = ["%00", "a%00b", "%00%00%00", "%FF", "a%01b"]
# Our own routes must say 404; third-party ones (admin, allauth) must at least not fail.
OWN_PREFIXES = ("/play/", "/players/", "/shop/", "/media/", "/rooms/")


def _routes(resolver=None, prefix: str = "") -> list[str]:
    """Every route as a template string: `<name>` where a parameter goes."""
    resolver = resolver or get_resolver()
    routes = []
    for entry in resolver.url_patterns:
        pattern = _template(str(entry.pattern))
        if isinstance(entry, URLResolver):
            routes += _routes(entry, prefix + pattern)
        elif isinstance(entry, URLPattern):
            routes.append(prefix + pattern)
    return routes


def _template(pattern: str) -> str:
    pattern = re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", pattern)  # route syntax
    pattern = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", pattern)  # regex syntax
    return pattern.replace("^", "").replace("$", "").replace("\\", "")


ROUTES_WITH_PARAMETERS = sorted({"/" + r for r in _routes() if "<" in r})


def test_the_walk_finds_the_routes_with_parameters():
    for route in ("/play/m/<public_id>/", "/play/tournament/<public_id>/", "/players/<display_name>/"):
        assert route in ROUTES_WITH_PARAMETERS


@pytest.mark.django_db
def test_junk_in_a_path_parameter_is_never_a_server_error(client, django_user_model):
    # Staff, so the admin's object pages are reached rather than redirected to the sign-in page.
    client.force_login(
        django_user_model.objects.create(username="Boss", email="boss@example.com", is_staff=True, is_superuser=True)
    )
    failures = []
    for route in ROUTES_WITH_PARAMETERS:
        for junk in JUNK:
            url = re.sub(r"<\w+>", junk, route)
            status = client.get(url).status_code
            if status >= 500 or (route.startswith(OWN_PREFIXES) and status != 404):
                failures.append(f"{url} answered {status}")
    assert failures == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/match/%00/", "/ws/match/a%00b/", "/ws/match/", "/ws/nothing-here/"])
async def test_a_socket_to_no_route_is_closed_with_not_found(path):
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_output() == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}
    await comm.disconnect()
