"""Real Chromium through Playwright. Debian's /usr/bin/chromium; on CI a missing browser fails.

Every module here sets `pytestmark = pytest.mark.browser`: `make test` runs them in their own
pytest process: pytest-playwright keeps an event loop running, which breaks async tests that
run after it (docs/testing.md).
"""

import os
import shutil

import pytest
from django.conf import settings

from tests.support.live_server import LiveDaphne

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = {**browser_type_launch_args, "args": CHROMIUM_FLAGS}
    if os.path.exists(CHROMIUM):
        args["executable_path"] = CHROMIUM
    elif os.environ.get("CI") or not shutil.which("chromium"):
        # Never a silent skip: without a browser these tests fail loudly.
        pytest.fail(f"Chromium not found at {CHROMIUM}; install it with `apt-get install chromium`.")
    return args


@pytest.fixture(autouse=True)
def _allow_sync_orm_in_playwright():
    # Playwright's sync API runs an event loop, so ORM calls in the test body look "async" to
    # Django (SynchronousOnlyOperation). Scoped to browser tests only.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture(scope="module")
def site_server(django_db_setup, django_db_blocker):
    """One real daphne for a whole module (starting one per test costs seconds). Its tests use
    `transactional_db` so what they create is committed where the server's process reads it."""
    allowed = settings.ALLOWED_HOSTS
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    server = LiveDaphne(django_db_blocker).start()
    yield server
    server.stop()
    settings.ALLOWED_HOSTS = allowed
