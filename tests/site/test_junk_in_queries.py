"""Junk in a page's query parameters (a NUL byte, 5,000 characters, non-digits, negative and huge numbers)
is never a server error, on every GET page and every parameter it reads (issue 28 item 6).

`GET /rooms/?again=%00` answered 500: PostgreSQL refuses a NUL byte in text. The pages are walked from
the URL conf, as `test_junk_in_urls.py` walks the paths, and each is opened once with a `request.GET`
that notes what the view reads (`tests/support/queries.py`); every parameter read is then sent each kind
of junk. A page or a parameter added later is covered without touching this file. Our own pages must
also answer as they do without the junk, or with a 400/404 page that says what was wrong; third-party
pages (the admin, allauth) must not fail.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.http import QueryDict
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from games import engine
from games.match.tournaments import start_tournament
from rooms import services as room_services
from shop import money, wallet
from shop.models import Item
from tests.support import queries
from tests.support.matches import make_table, win_match_for
from tests.support.rooms import options
from truco_site.middleware import cleaned

OWN_APPS = ("truco_site.", "accounts.", "games.", "rooms.", "shop.", "stats.")

# Each kind of junk, as it stands in a query string (percent-encoded where it must be).
JUNK = {
    "NUL": "%00",
    "NUL inside": "a%00b",
    "5,000 characters": "x" * 5000,
    "5,000 digits": "9" * 5000,
    "letters": "abc",
    "negative": "-1",
    "zero": "0",
    "huge": "9" * 40,
    "past 64 bits": str(2**63),
    "superscript digit": quote("²"),
    "broken UTF-8": "%FF%FE",
    "empty": "",
}
OTHER_KINDS = [kind for kind in JUNK if kind != "NUL"]
# The admin's own parameters: a third-party page that reads its query whole is tried with these.
ADMIN_NAMES = ("q", "o", "p", "e", "all", "_popup", "_to_field", "_changelist_filters")


def _patterns(resolver=None, prefix: str = "") -> list[tuple[str, str, str]]:
    """Every route: (its name with namespaces, its pattern as text, its view's module)."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            found += [
                (name, str(entry.pattern) + pattern, module) for name, pattern, module in _patterns(entry, namespace)
            ]
        elif isinstance(entry, URLPattern):
            view = getattr(entry.callback, "view_class", entry.callback)
            found.append((prefix + (entry.name or ""), str(entry.pattern), view.__module__))
    return found


ROUTES = _patterns()


def _world(make_user) -> dict[str, object]:
    """Something behind every path parameter, so each page shows itself rather than its 404; the player
    is staff, so the admin's pages show too."""
    match, (player, rival) = make_table(make_user, 2)
    win_match_for(match, 0)
    player.is_staff = player.is_superuser = True
    player.save()
    wallet.change_balance(player, currency=wallet.BLUE_COINS, amount=5, reason=money.Reason.ADMIN_ADJUSTMENT)
    tournament = start_tournament(player, engine.RuleSet(variant="paulista", seats=2))
    room = room_services.create_room(player, options(), is_private=True, name="Mesa", password="segredo1")
    item = Item.objects.filter(is_active=True).first()
    return {
        "player": player,
        "values": {
            "public_id": match.public_id,
            "tournament": tournament.public_id,
            "code": room.code,
            "display_name": rival.username,
            "slug": item.slug if item else "x",
            "pk": 1,
            "line_id": 1,
            "invitation_id": 1,
            "user_id": rival.pk,
            "app_label": "rooms",
            "content_type_id": ContentType.objects.get_for_model(room).pk,
            "object_id": room.pk,
            "id": rival.pk,
            "key": "abc",
            "uidb36": "1",
            "path": "nothing.png",
            "url": "nothing/",
            "action": "request",
        },
    }


def _url(name: str, pattern: str, values: dict) -> str | None:
    """The route's address with a real object behind each parameter (None: one the world cannot fill)."""
    names = [a or b for a, b in re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", pattern)]
    kwargs = {n: values[n] for n in names}
    if "object_id" in names:
        model = _admin_model(pattern)
        if model is not None:
            kwargs["object_id"] = model.objects.values_list("pk", flat=True).first() or 1
    if name == "games:tournament":
        kwargs["public_id"] = values["tournament"]
    if name and not name.endswith(":"):
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            return None
    # A route without a name (the admin's old change address and its catch-all, /media/): filled in.
    filled = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), pattern)
    filled = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m.group(1)]), filled)
    return "/" + filled.replace("^", "").replace("$", "")


def _admin_model(pattern: str):
    """The model an admin route belongs to, from its address (admin/<app>/<model>/...)."""
    for model in admin.site._registry:
        if pattern.startswith(f"admin/{model._meta.app_label}/{model._meta.model_name}/"):
            return model
    return None


def _pages(client, values) -> list[tuple[str, str, int, queries.Reads]]:
    """Each route opened once with a harmless parameter: (address, view module, status, what it read)."""
    pages = []
    for name, pattern, module in ROUTES:
        url = _url(name, pattern, values)
        if url is None:
            continue
        response = client.get(url + "?probe=1")
        pages.append((url, module, response.status_code, queries.reads()))
    return pages


@pytest.fixture
def walk(db, make_user, settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, queries.RECORDER]
    return _world(make_user)


def _trials(pages) -> list[tuple[str, str, int, str]]:
    """(address, query, status without junk, view module) for every parameter each page reads.

    Our pages: every kind of junk in every parameter. Third-party pages (the admin: a hundred pages
    sharing their code across models) get NUL in every parameter and the other kinds in turn across
    pages and parameters, so every kind meets every parameter without 10,000 requests.
    """
    known = {name for *_, reads in pages for name in reads.names} - {"probe"}
    trials, turn = [], 0
    for url, module, clean_status, reads in pages:
        own = module.startswith(OWN_APPS)
        names = set(reads.names) - {"probe"}
        if reads.everything:
            names |= known if own else set(ADMIN_NAMES)
        for name in sorted(names):
            if own:
                kinds = list(JUNK)
            else:
                kinds = ["NUL", OTHER_KINDS[turn % len(OTHER_KINDS)], OTHER_KINDS[(turn + 1) % len(OTHER_KINDS)]]
                turn += 2
            trials += [(url, f"{quote(name)}={JUNK[kind]}", clean_status, module) for kind in kinds]
        if reads.everything:  # junk in the name itself
            trials += [(url, junk, clean_status, module) for junk in ("%00=1", "x" * 5000 + "=1", "%FF=1")]
    return trials


def _failures(client, pages, *, share: int = 0, shares: int = 1) -> list[str]:
    """The failing trials among every `shares`-th trial from `share` (every trial by default)."""
    failures = []
    for url, query, clean_status, module in _trials(pages)[share::shares]:
        status = client.get(f"{url}?{query}").status_code
        own = module.startswith(OWN_APPS)
        # Our pages answer as without the junk, or with a page saying what was wrong (400, 404).
        if status >= 500 or (own and status != clean_status and status not in (400, 404)):
            failures.append(f"{url}?{query[:60]} answered {status} (without junk {clean_status})")
    return failures


def test_the_walk_finds_every_page_that_reads_its_query(client, walk):
    client.force_login(walk["player"])
    # Every route is opened: one whose parameters the world cannot fill fails here, not silently.
    assert [name for name, pattern, _ in ROUTES if _url(name, pattern, walk["values"]) is None] == []
    pages = {url: reads for url, _, _, reads in _pages(client, walk["values"])}
    assert len(pages) == len(ROUTES)
    read = {url: reads.names - {"probe"} for url, reads in pages.items()}
    assert {"again", "variant", "table"} <= read["/rooms/"] and pages["/rooms/"].everything
    assert {"period", "page", "country"} <= read["/leaderboards/"]
    assert "page" in read["/play/history/"] and "page" in read["/shop/wallet/"] and "kind" in read["/shop/"]
    assert "invite" in read[reverse("rooms:room", kwargs={"code": walk["values"]["code"]})]
    assert any(reads.everything for url, reads in pages.items() if url.startswith("/admin/"))


# The staff player's walk (about 2,000 requests) in shares that parallel test workers can run side by side:
# one per worker of `make test`. Each share first opens every page once to learn what it reads (249
# requests), so more shares than workers only repeat that.
PLAYER_SHARES = 2


@pytest.mark.parametrize(("who", "share"), [("anonymous", 0)] + [("player", share) for share in range(PLAYER_SHARES)])
def test_junk_in_any_query_parameter_of_any_page_is_never_a_server_error(walk, who, share):
    # A server error is an answer to count, not an exception to stop at.
    client = Client(raise_request_exception=False)
    if who == "player":
        client.force_login(walk["player"])
    pages = _pages(client, walk["values"])
    if who == "anonymous":
        pages = [page for page in pages if not page[0].startswith("/admin/")]
    shares = PLAYER_SHARES if who == "player" else 1
    failures = _failures(client, pages, share=share, shares=shares)
    assert not failures, "\n".join(failures)


def test_a_nul_in_the_lobbys_again_is_just_the_lobby(client, user):
    # The case: PostgreSQL refused the NUL in the room lookup (DataError, a 500).
    client.force_login(user)
    for query in ("again=%00", "again=a%00b", "again=%00&variant=paulista"):
        response = client.get(f"/rooms/?{query}", HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200 and "data-lobby-socket" in response.content.decode()


@pytest.mark.parametrize("page", ["²", "١", "9" * 5000, "9" * 40, "0", "-1", "abc"])
def test_a_leaderboard_page_that_is_no_page_number_says_so(client, page):
    response = client.get("/leaderboards/", {"page": page}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404 and "is not a page number." in response.content.decode()


def test_the_query_loses_only_what_no_page_can_use():
    query = QueryDict("again=a%00b&variant=paulista&table=%00&table=2&%00x=1&_to_field=&all=&q=ok", mutable=False)
    kept = cleaned(query)
    assert dict(kept.lists()) == {"variant": ["paulista"], "table": ["2"], "all": [""], "q": ["ok"]}
    assert not kept._mutable
    clean = QueryDict("page=2&_to_field=id")
    assert cleaned(clean) is clean
