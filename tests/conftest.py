"""Fixtures shared by every Django test: users, signed-in clients, a live daphne server."""

import importlib
import itertools
import shutil

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import connections

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match
from tests.support import flush
from tests.support.live_server import LiveDaphne
from tests.support.private_redis import PrivateRedis

PASSWORD = "a-Strong-pass-42"
_counter = itertools.count(1)


def pytest_configure(config):
    # Before any test hashes a password (Django caches its hashers at first use); forked live servers
    # inherit it. tests/support/hashers.py says why.
    settings.PASSWORD_HASHERS = ["tests.support.hashers.OneIterationPBKDF2PasswordHasher"]
    flush.use_delete()


@pytest.fixture(autouse=True)
def _fresh_cache():
    # allauth's rate limits count in the cache; with Redis it would outlive the test run.

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _analyses_never_wait_for_the_tables(settings):
    """A test plays a match and analyses it at once, in one process: its own moves would make the analysis
    give way (games.match.pace). The tests of that wait set the threshold themselves."""
    settings.GAMES_ANALYSIS_BUSY_MOVES_PER_S = float("inf")


@pytest.fixture(autouse=True)
def _no_connection_left_in_asgirefs_thread():
    """Async tests run ORM calls through asgiref's plain `sync_to_async`, which runs them in one thread
    that lives as long as the process and never closes its connection (Channels' `database_sync_to_async`
    does). Left open, that connection outlived the test database, whose teardown then failed with
    "database … is being accessed by other users", and at exit its lease logged into pytest's closed
    stream (issue 28 item 9). Closed after each test, as Django closes a request's."""
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str | None = None, *, email: str | None = None, password: str = PASSWORD, **extra):
        n = next(_counter)
        username = username or f"player{n}"
        email = email or f"{username.lower()}@example.com"
        return django_user_model.objects.create_user(username=username, email=email, password=password, **extra)

    return make


@pytest.fixture
def user(make_user):
    return make_user("Ana")


@pytest.fixture
def signed_in_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def live_daphne(transactional_db, django_db_blocker, settings):
    """A real daphne (HTTP + WebSockets) on the test database; stopped after the test."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    server = LiveDaphne(django_db_blocker).start()
    yield server
    server.stop()


@pytest.fixture
def stocked_shop(transactional_db):
    """The catalogue, prices and shop settings of the data migrations, back after a transactional test flushed them."""
    importlib.import_module("shop.migrations.0002_stock_the_shop").stock(apps, None)
    importlib.import_module("shop.migrations.0003_economy_prices").set_prices(apps, None)


@pytest.fixture
def stocked_achievements(transactional_db):
    """The achievements of the data migration, back after a transactional test flushed them."""
    importlib.import_module("stats.migrations.0003_stock_achievements").stock(apps, None)


@pytest.fixture
def private_channel_layer(settings):
    """A redis-server of the test's own as the channel layer (the test may stop and start it); request it
    before `live_daphne` so the forked server uses it too. Skips where redis-server is not installed."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server (CI has it)")
    server = PrivateRedis()
    server.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [server.url], "prefix": "privatelayer"},
        }
    }
    channel_layers.backends.clear()
    yield server
    server.stop()
    channel_layers.backends.clear()


@pytest.fixture
def fast_ai(settings):
    """AI seats that answer in 20-50 ms; set before a `live_daphne` forks (the child copies the
    settings). AI seats still go through the database deadline, the timers and the sweeper."""
    settings.SWEEPER_ENABLED = True
    settings.GAMES_AI_DELAY_S = (0.02, 0.05)
    settings.SWEEPER_INTERVAL_S = 0.05


@pytest.fixture
def start_match(db):
    def start(
        user=None, *, guest_token="", seats=2, partnership=None, variant="paulista", level="medium", seed=7, **rules
    ) -> Match:
        ruleset = engine.RuleSet.from_dict({"variant": variant, "seats": seats, "partnership": partnership, **rules})
        plans = seat_plans_against_ai(ruleset, level, user=user, guest_token=guest_token)
        return create_match(rules=ruleset, seats=plans, bot_level=level, seed=seed)

    return start
