"""What the sockets push: the out-of-band fragments rebuild the next page exactly, and no frame to any
socket ever carries a card that viewer may not see (hands, deck, face-down identities): the players'
sockets and a spectator's (the spectator view: no hidden card at all)."""

import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import engine
from games.engine.view import seat_view
from games.models import Match
from games.table.rendering import REGIONS
from tests.support.leaks import cards_shown, hidden_from
from tests.support.matches import act, login_cookie, make_table
from truco_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

REGION_TAGS = {**{r: "section" for r in REGIONS}, "table-message": "div"}


def region_html(page: str, region: str) -> str:
    tag = REGION_TAGS[region]
    start = page.index(f'<{tag} id="{region}"')
    end = page.index(f"</{tag}>", start) + len(tag) + 3
    return page[start:end]


def apply_oob(page: str, frame: str) -> str:
    """What htmx does with hx-swap-oob="true" (replace the element with the same id) or "innerHTML" (replace
    its content; the live-region container stays, with the same attributes): the attribute is dropped."""
    for region, tag in REGION_TAGS.items():
        if f'<{tag} id="{region}"' in frame:
            new = region_html(frame, region).replace(' hx-swap-oob="true"', "").replace(' hx-swap-oob="innerHTML"', "")
            page = page.replace(region_html(page, region), new)
    return page


async def open_sockets(match, users):
    comms, clients = [], []
    for user in users:
        client, cookie = await sync_to_async(login_cookie)(user)
        comm = WebsocketCommunicator(
            application,
            f"/ws/match/{match.public_id}/",
            headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode()), (b"accept-language", b"en")],
        )
        assert (await comm.connect())[0]
        comms.append(comm)
        clients.append(client)
    return comms, clients


def load(match):
    match.refresh_from_db()
    return match.version, engine.from_json(match.state), match.status


def page_of(client, match) -> str:
    response = client.get(f"/play/m/{match.public_id}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def cards_first(rng, actions):
    """A random card (or an accepted question) where there is one: more hands reach their later rounds."""
    plays = [a for a in actions if a.kind in ("play", "accept")]
    return rng.choice(plays or actions)


def allow_spectators(match) -> None:
    Match.objects.filter(pk=match.pk).update(allow_spectators=True)
    match.allow_spectators = True


async def open_spectators(match, spectators):
    """Spectators' sockets, opened before the players' (each opening tells the table the new count: the
    players' sockets read it in their first snapshot); returns them with their first snapshot."""
    comms, snapshots = [], []
    for user in spectators:
        opened, _ = await open_sockets(match, [user])
        comms += opened
    for comm in comms:
        frames = [await comm.receive_from(timeout=10)]
        while not await comm.receive_nothing(timeout=0.2):
            frames.append(await comm.receive_from(timeout=10))  # the count going up as the others opened
        snapshots.append("".join(frames))
    return comms, snapshots


async def drive(match, users, *, steps=400, seed=0, check_fragments=True, choose=None, seen=None, spectators=()):
    """Play random legal moves for every seat; check each frame for leaks and seat 0's page rebuild.

    ``choose(rng, legal)`` picks each action (default: uniformly); ``seen`` counts the frames sent
    while a double play's hidden card lay on the table. ``spectators`` (accounts with no seat) watch
    through their own sockets: every frame they get is scanned against the spectator's hidden cards."""
    rng = random.Random(seed)
    choose = choose or (lambda rng, actions: rng.choice(actions))
    watching, snapshots = await open_spectators(match, spectators)
    comms, clients = await open_sockets(match, users)
    _, state, _ = await sync_to_async(load)(match)
    frames_checked = eleven_frames = 0
    try:
        for snapshot in snapshots:
            leaked = cards_shown(snapshot) & hidden_from(state, None)
            assert not leaked, f"a spectator's snapshot showed hidden cards {leaked}"
        for n, comm in enumerate(comms):
            snapshot = await comm.receive_from()
            assert not (cards_shown(snapshot) & hidden_from(state, n))
        page = await sync_to_async(page_of)(clients[0], match)
        for _ in range(steps):
            version, state, status = await sync_to_async(load)(match)
            if status != Match.Status.ACTIVE:
                break
            seat = engine.seats_to_act(state)[0]
            action = choose(rng, engine.legal_actions(state, seat)).to_dict()
            await sync_to_async(act)(match.public_id, seat, action, version)
            _, state, _ = await sync_to_async(load)(match)
            for n, comm in enumerate(comms):
                frame = await comm.receive_from()
                leaked = cards_shown(frame) & hidden_from(state, n)
                assert not leaked, f"seat {n} was sent hidden cards {leaked} at version {version + 1}"
                frames_checked += 1
                eleven_frames += state.kind == "eleven"
                if seen is not None and state.hidden:
                    seen["hidden_on_table"] += 1
                    seen["double_plays_shown"] += frame.count("data-beneath=")
                    # The whole page too, as a reload would fetch it, for each seat.
                    whole = await sync_to_async(page_of)(clients[n], match)
                    leaked = cards_shown(whole) & hidden_from(state, n)
                    assert not leaked, f"seat {n}'s page showed hidden cards {leaked} at version {version + 1}"
                    seen["pages_checked"] += 1
                if n == 0 and check_fragments:
                    page = apply_oob(page, frame)
                    fresh = await sync_to_async(page_of)(clients[0], match)
                    for region in REGIONS:
                        assert region_html(page, region) == region_html(fresh, region), (region, version + 1)
            for comm in watching:
                frame = await comm.receive_from(timeout=10)
                leaked = cards_shown(frame) & hidden_from(state, None)
                assert not leaked, f"a spectator was sent hidden cards {leaked} at version {version + 1}"
                frames_checked += 1
                if seen is not None:
                    seen["spectator_frames"] = seen.get("spectator_frames", 0) + 1
    finally:
        for comm in watching + comms:
            await comm.disconnect()
    _, _, status = await sync_to_async(load)(match)
    assert status == Match.Status.FINISHED, "the drive must cover a whole match"
    return frames_checked, eleven_frames


@pytest.mark.asyncio
async def test_pushed_fragments_rebuild_the_next_page_exactly(make_user):
    match, users = await sync_to_async(make_table)(make_user, 2, seed=5)
    checked, _ = await drive(match, users, steps=400, seed=1)
    assert checked >= 20


@pytest.mark.asyncio
async def test_pushed_fragments_rebuild_the_page_in_a_four_seat_team_match(make_user):
    match, users = await sync_to_async(make_table)(make_user, 4, seed=6)
    checked, _ = await drive(match, users, steps=400, seed=2)
    assert checked >= 40


@pytest.mark.parametrize(
    "seats, variant, partnership, score",
    [
        (2, "paulista", None, None),
        (2, "mineiro", None, None),
        (4, "paulista", True, [11, 3]),  # starts with a hand of eleven: partners see each other's cards
        (4, "paulista", False, None),
        (2, "paulista", None, [11, 11]),  # iron hand
    ],
)
@pytest.mark.asyncio
async def test_no_frame_to_any_socket_shows_a_card_its_viewer_may_not_see(
    make_user, seats, variant, partnership, score
):
    match, users = await sync_to_async(make_table)(
        make_user, seats, variant=variant, partnership=partnership, score=score, seed=9
    )
    await sync_to_async(allow_spectators)(match)
    spectator = await sync_to_async(make_user)("Watcher")
    checked, eleven_frames = await drive(match, users, steps=600, seed=3, check_fragments=False, spectators=[spectator])
    assert checked >= 2 * (seats + 1)
    if score == [11, 3]:
        assert eleven_frames > 0


SEEDS = [(40, 0), (41, 1), (42, 2), (43, 3)]


@pytest.mark.parametrize(
    "seats, partnership, score, check_fragments, games",
    [
        (2, None, None, True, SEEDS),
        (4, True, None, False, SEEDS),
        # (match seed, move seed) pairs whose hands of ten reach a double play (found by replaying the engine)
        (2, None, [10, 4], False, [(41, 3), (43, 0), (54, 0)]),
    ],
    ids=["two-seats-pages-rebuilt", "four-seats-teams", "hand-of-ten"],
)
@pytest.mark.asyncio
async def test_online_mineiro_never_sends_a_hidden_card_before_it_is_shown(
    make_user, seats, partnership, score, check_fragments, games
):
    """Every frame to every seat and to a spectator, while double plays lie on the table: the card beneath
    another seat's face-up card is never in it (its owner sees it; the pages rebuilt from the pushes match)."""
    seen = {"hidden_on_table": 0, "double_plays_shown": 0, "pages_checked": 0, "spectator_frames": 0}
    total = 0
    spectator = await sync_to_async(make_user)("Watcher")
    for match_seed, move_seed in games:
        match, users = await sync_to_async(make_table)(
            make_user,
            seats,
            variant="mineiro",
            mineiro_style="online",
            partnership=partnership,
            score=score,
            seed=match_seed,
        )
        await sync_to_async(allow_spectators)(match)
        checked, _ = await drive(
            match,
            users,
            steps=600,
            seed=move_seed,
            check_fragments=check_fragments,
            choose=cards_first,
            seen=seen,
            spectators=[spectator],
        )
        total += checked
    assert total >= 20
    assert seen["hidden_on_table"] > 0 and seen["double_plays_shown"] > 0 and seen["pages_checked"] > 0, seen
    assert seen["spectator_frames"] > 0, seen


@pytest.mark.parametrize("variant, style", [("paulista", ""), ("mineiro", "online")])
@pytest.mark.asyncio
async def test_the_spectator_scan_fails_when_the_spectator_view_leaks_a_hand(make_user, monkeypatch, variant, style):
    # The spectator checks above must be able to fail: a site whose "spectator view" were seat 0's
    # view would put seat 0's hand in the spectator's frames, and the scan says so.
    options = {"mineiro_style": style} if style else {}
    match, users = await sync_to_async(make_table)(make_user, 2, variant=variant, seed=9, **options)
    await sync_to_async(allow_spectators)(match)
    spectator = await sync_to_async(make_user)("Watcher")
    monkeypatch.setattr(engine, "spectator_view", lambda state: seat_view(state, 0))
    with pytest.raises(AssertionError, match="spectator"):
        await drive(match, users, steps=600, seed=3, check_fragments=False, spectators=[spectator])


def test_leak_scanner_finds_a_card_in_a_frame():
    # The scanner itself must be able to fail: a face drawn from the sprite, a face written as text and a data
    # attribute are all seen.
    assert cards_shown('<svg class="card-art"><use href="/static/games/cards.svg#card-7D"/></svg>') == {"7D"}
    assert cards_shown('<use href="/static/games/cards.3f2a.svg#card-QH" x="-120"/>') == {"QH"}
    assert cards_shown('<use href="/static/games/cards.svg#card-back"/>') == set()
    assert cards_shown('<span class="rank">7</span><span class="suit">♦</span>') == {"7D"}
    assert cards_shown('<button data-card="QC" hx-vals=\'{"card": "QC"}\'>') == {"QC"}
    assert cards_shown("token AB4C-x 4C_") == set()


def test_oob_application_replaces_by_id():
    page = '<x><section id="status" data-version="1">a</section><section id="hand">h</section></x>'
    frame = '<section id="status" hx-swap-oob="true" data-version="2">b</section>'
    assert (
        apply_oob(page, frame)
        == '<x><section id="status" data-version="2">b</section><section id="hand">h</section></x>'
    )
