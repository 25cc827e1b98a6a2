"""The sweeper's pass over due matches, against the real database, layer and socket."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match
from games.table import sweeper
from truco_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
LATER = timedelta(seconds=200)  # past every deadline: an AI seat's delay and a person's clock


def start_against_ai(user, seed: int) -> Match:
    rules = engine.RuleSet(variant="paulista", seats=2)
    return create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy", seed=seed)


def versions(*matches) -> list[int]:
    return [Match.objects.get(pk=m.pk).version for m in matches]


def cookie_of(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def test_a_pass_makes_every_due_move_and_publishes_it(make_user, monkeypatch):
    user = await sync_to_async(make_user)("Ana")
    first, second = [await sync_to_async(start_against_ai)(user, seed) for seed in (1, 2)]
    published = []

    async def publish_move(match):
        published.append((match.pk, match.version))

    monkeypatch.setattr(sweeper, "publish_move", publish_move)
    assert await sweeper.sweep_once(now=timezone.now() + LATER) == 2
    assert await sync_to_async(versions)(first, second) == [2, 2]
    assert sorted(published) == sorted([(first.pk, 2), (second.pk, 2)])
    assert await sweeper.sweep_once(now=timezone.now()) == 0  # nothing is due before the next deadline


async def test_a_failed_publish_keeps_the_move_the_sweeper_goes_on_and_the_socket_catches_up(
    make_user, settings, monkeypatch
):
    settings.GAMES_SOCKET_WATCHDOG_S = 0.2
    user = await sync_to_async(make_user)("Ana")
    first, second = [await sync_to_async(start_against_ai)(user, seed) for seed in (1, 2)]
    comm = WebsocketCommunicator(
        application,
        f"/ws/match/{first.public_id}/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", (await sync_to_async(cookie_of)(user)).encode())],
    )
    assert (await comm.connect())[0]
    assert 'data-version="1"' in await comm.receive_from(timeout=5)

    async def layer_down(match):
        raise ConnectionError("the channel layer is unreachable")

    monkeypatch.setattr(sweeper, "publish_move", layer_down)
    assert await sweeper.sweep_once(now=timezone.now() + LATER) == 2
    # Both moves are stored, the second match's too: one failed publish does not stop the pass.
    assert await sync_to_async(versions)(first, second) == [2, 2]
    # Nobody told the socket; it reads its quiet table again and pushes the new version.
    assert 'data-version="2"' in await comm.receive_from(timeout=5)
    await comm.disconnect()
