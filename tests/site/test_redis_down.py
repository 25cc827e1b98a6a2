"""Redis stops: pages that need no socket keep working, signing in among them, and the sign-in lock holds.

Redis carries the channel layer and the cache (allauth's rate limits). With Redis down, signing in
answered 500 because the rate-limit check raised ConnectionError. This test runs its own redis-server
(on a port of its own), stops it in the middle and starts it again.
"""

from __future__ import annotations

import shutil
import time

import pytest
from channels.layers import channel_layers
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.support.matches import PLAY_FORM as SINGLE_MATCH_FORM
from tests.support.private_redis import PrivateRedis
from truco_site import cache as site_cache

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server (CI has it)"),
]


@pytest.fixture
def private_redis(settings):
    server = PrivateRedis()
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "truco_site.cache.RedisOrLocalCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [server.url]}}
    }
    channel_layers.backends.clear()
    yield server
    server.stop()
    channel_layers.backends.clear()


PLAY_FORM = {**SINGLE_MATCH_FORM, "all_tied": "nobody", "move_seconds": "60"}


def sign_in(client, login: str, password: str = PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def test_pages_and_sign_in_work_while_redis_is_down_and_recover_when_it_returns(
    client, make_user, stocked_shop, private_redis, monkeypatch
):
    monkeypatch.setattr(site_cache, "RETRY_AFTER_S", 0.2)
    ana = make_user("Ana")
    assert sign_in(client, ana.email).status_code == 302
    assert any(b"allauth" in key for key in private_redis.keys())  # the limits counted in Redis
    client.post(reverse("account_logout"))

    private_redis.stop()

    # Pages that need no socket answer as usual.
    for url in ("/", "/play/", "/shop/", "/privacy/", reverse("account_login"), reverse("account_signup")):
        assert client.get(url).status_code == 200, url
    # Signing in, signing up and starting a match against the AI.
    assert sign_in(client, ana.email).status_code == 302
    assert client.get("/shop/wallet/").status_code == 200
    started = client.post("/play/", PLAY_FORM)
    assert started.status_code == 302 and client.get(started["Location"]).status_code == 200
    client.post(reverse("account_logout"))
    signup = {"email": "bia@example.com", "username": "Bia", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("account_signup"), signup).status_code == 302
    client.post(reverse("account_logout"))
    # The health check tells the proxy what is missing.
    health = client.get("/healthz")
    assert health.status_code == 503 and health.json()["channel_layer"] == "unavailable"

    # The failed-sign-in lock still holds while Redis is down (counted in this process).
    for i in range(5):
        assert sign_in(client, ana.email, f"wrong-{i}").status_code == 200
    assert sign_in(client, ana.email).status_code == 200
    assert "_auth_user_id" not in client.session

    private_redis.start()
    time.sleep(0.3)

    # Redis is used again by itself: a new account's sign-in counts there.
    make_user("Caio")
    assert sign_in(client, "caio@example.com").status_code == 302
    assert any(b"allauth" in key for key in private_redis.keys())
