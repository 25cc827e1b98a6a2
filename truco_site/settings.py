"""The one settings module. Everything that differs between machines comes from the environment.

Embedded default (no variables set): DEBUG on, an SQLite file and the in-memory channel layer.
Production: DEBUG=0 plus SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def redis_database_for_worker(url: str, worker: str) -> str:
    """The Redis URL with database N+1 for test worker gwN (the URL itself outside a parallel test run)."""
    if not worker:
        return url
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{int(worker.removeprefix('gw')) + 1}"))


DEBUG = env_bool("DEBUG", True)

# A development key is fine only while DEBUG is on; a production process must be given one.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # must come first: its runserver serves WebSockets too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "allauth",
    "allauth.account",
    "django_countries",
    "truco_site",
    "accounts",
    "shop",
    "stats",
    "games",
    "rooms",
    "devtools",  # load tests, benches, seeding: management commands only (and the bench floor socket)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads request.GET: no NUL byte reaches a view (PostgreSQL refuses it in text).
    "truco_site.middleware.clean_query",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "truco_site.urls"
ASGI_APPLICATION = "truco_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "shop.context_processors.header_balances",
                "rooms.context_processors.notices",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
SQLITE_PATH = BASE_DIR / "db.sqlite3"
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{SQLITE_PATH}",
        # Connections are kept open: a new PostgreSQL connection per message cost hundreds
        # of ms under load (measured before the project started; docs/performance.md).
        conn_max_age=600,
        conn_health_checks=True,
    )
}
# PostgreSQL: at most DATABASE_POOL_SIZE connections per process, whatever the concurrency. Under
# daphne every HTTP request runs in a thread of its own, and a connection kept open per thread
# (CONN_MAX_AGE) outlived its thread: 100 parallel requests left one process holding ~100-200
# connections. With psycopg's pool a thread borrows a connection for one request (or one
# database call of the table's socket) and gives it back; a request beyond the bound waits for
# one (up to DATABASE_POOL_TIMEOUT_S, then 500). Measured and chosen in docs/decisions.md.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "8"))
DATABASE_POOL_TIMEOUT_S = float(os.environ.get("DATABASE_POOL_TIMEOUT_S", "10"))
# How long one attempt to open a connection may take (libpq's connect_timeout; psycopg's least is 2 s).
# Without it an address that accepts and never answers held the pool's connecting threads for 130 s
# each. A database that cannot be reached fails a request after one attempt, not after
# DATABASE_POOL_TIMEOUT_S (truco_site/postgresql/base.py, docs/decisions.md "Issue 28: faults").
DATABASE_CONNECT_TIMEOUT_S = max(2, int(os.environ.get("DATABASE_CONNECT_TIMEOUT_S", "2")))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend with a pool that fails fast on an unreachable database, and a thread that
    # ends holding a pooled connection gives it back.
    DATABASES["default"]["ENGINE"] = "truco_site.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django refuses both at once
    DATABASES["default"]["OPTIONS"] = {
        "connect_timeout": DATABASE_CONNECT_TIMEOUT_S,
        "pool": {
            "min_size": min(2, DATABASE_POOL_SIZE),
            "max_size": DATABASE_POOL_SIZE,
            "timeout": DATABASE_POOL_TIMEOUT_S,
            # The pool retries a failed connection with a growing delay (1, 2, 4 … s) until it gives
            # up; given up, the next request tries at once. 5 s keeps a database that comes back from
            # waiting on a long delay (the default, 5 minutes, let the delays grow past a minute).
            "reconnect_timeout": 5.0,
        },
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file on this machine does not drop a connection the way a server can: the health check
    # would only add a `SELECT 1` before every database call of the table's socket and clock.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the web process read while a write is in flight; IMMEDIATE avoids the
        # deadlock-prone lock upgrade of a deferred transaction that reads before it writes.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
# TEST_DB_NAME lets two test runs share a machine without dropping each other's database.
TEST_DB_NAME = os.environ.get("TEST_DB_NAME", "")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file (not :memory:) so that a live daphne test server in another process sees it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"{TEST_DB_NAME or 'test_db'}.sqlite3")}
else:
    # The live-server child of channels 4.3.2 connects to "test_test_<name>" unless the test
    # database is named explicitly (django/channels#2176).
    DATABASES["default"]["TEST"] = {"NAME": TEST_DB_NAME or "test_" + DATABASES["default"]["NAME"]}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A socket whose table has been quiet this long reads it again, in case a publish was lost.
GAMES_SOCKET_WATCHDOG_S = float(os.environ.get("GAMES_SOCKET_WATCHDOG_S", "5"))
# How long the people of a finished room match have to all accept "Play again" (issue 11 item 10).
ROOMS_PLAY_AGAIN_S = int(os.environ.get("ROOMS_PLAY_AGAIN_S", "60"))
# Friendly annulment (issue 12): every person agrees within this many seconds, and a person whose
# proposal was refused or ran out waits the cooldown before proposing again.
ROOMS_ANNUL_VOTE_S = int(os.environ.get("ROOMS_ANNUL_VOTE_S", "30"))
ROOMS_ANNUL_COOLDOWN_S = int(os.environ.get("ROOMS_ANNUL_COOLDOWN_S", "120"))
# The chief's options panel marks the options "being changed" for this long after it was opened
# (or until it is closed): a chief who closes the tab does not leave the icon red for ever.
ROOMS_OPTIONS_OPEN_S = int(os.environ.get("ROOMS_OPTIONS_OPEN_S", "120"))
# Every page's notices socket (issue 33) re-reads the person's invitations and friend requests this often
# (a lost push shows late by at most this much) and so keeps them "online" (accounts/notices.py).
ROOMS_NOTICES_REREAD_S = float(os.environ.get("ROOMS_NOTICES_REREAD_S", "30"))
# The house's share of a stake pot, in percent (seed 002: 25 %), and the account it is paid to.
GAMES_HOUSE_CUT_PERCENT = 25
SHOP_HOUSE_USERNAME = "~house"
# The load test's floor socket (devtools/floor.py): a bench-only route, off unless BENCH_ROUTES=1.
BENCH_ROUTES = os.environ.get("BENCH_ROUTES", "") == "1"
# The process that stored a move wakes up at the next deadline (games/table/timers.py); the sweeper is
# the slow safety net for a process that died: it polls every SWEEPER_INTERVAL_S and takes only
# matches overdue by more than SWEEPER_GRACE_S (docs/architecture.md).
GAMES_TIMERS_ENABLED = os.environ.get("GAMES_TIMERS_ENABLED", "1") == "1"
# How many due moves one process writes at once (1: the AI's moves never queue in front of people's
# on the one database thread; more only for the A/B in docs/performance.md). The bots themselves
# think at once, off that thread (games/table/thinking.py).
GAMES_TIMER_RUNNERS = int(os.environ.get("GAMES_TIMER_RUNNERS", "1"))
# Where AI seats think (games/table/thinking.py): the cheap bots (0.1 ms a decision, less than pickling a
# view to another process) in GAMES_BOT_THREADS threads; the search bot (10-40 ms of pure Python,
# which in a thread holds the GIL against the event loop and the database thread) in
# GAMES_SEARCH_PROCESSES processes (0: in the threads too; docs/performance.md measures both).
GAMES_BOT_THREADS = int(os.environ.get("GAMES_BOT_THREADS", "4"))
GAMES_SEARCH_PROCESSES = int(os.environ.get("GAMES_SEARCH_PROCESSES", "1"))
# A post-match analysis (issue 34) is estimated in this many processes of its own, niced below the tables
# (0: in the analysis thread itself; games/table/analysing.py).
GAMES_ANALYSIS_PROCESSES = int(os.environ.get("GAMES_ANALYSIS_PROCESSES", "1"))
# An analysis gives way while this process's tables store this many moves a second or more (about two busy
# tables), and goes on with one decision after waiting this long all the same (games.table.analysing).
GAMES_ANALYSIS_BUSY_MOVES_PER_S = float(os.environ.get("GAMES_ANALYSIS_BUSY_MOVES_PER_S", "2"))
GAMES_ANALYSIS_MAX_WAIT_S = float(os.environ.get("GAMES_ANALYSIS_MAX_WAIT_S", "15"))
SWEEPER_INTERVAL_S = float(os.environ.get("SWEEPER_INTERVAL_S", "1"))
SWEEPER_GRACE_S = float(os.environ.get("SWEEPER_GRACE_S", "0.5"))
# Limits per player (docs/decisions.md, "Holding up under abuse and faults"): matches in progress per
# account or guest browser, match starts per IP address per window, and the missed turns in a row
# after which the sweeper ends a match as abandoned (its clock must not run forever).
GAMES_MAX_ACTIVE_MATCHES = int(os.environ.get("GAMES_MAX_ACTIVE_MATCHES", "3"))
GAMES_STARTS_PER_IP = int(os.environ.get("GAMES_STARTS_PER_IP", "10"))
GAMES_STARTS_WINDOW_S = int(os.environ.get("GAMES_STARTS_WINDOW_S", "600"))
GAMES_ABANDON_AFTER_MISSED_TURNS = int(os.environ.get("GAMES_ABANDON_AFTER_MISSED_TURNS", "3"))
# Presence at a room's table (games/match/presence.py, docs/decisions.md "Rooms, part 2"): each process
# refreshes its sockets' rows every HEARTBEAT_S; a seat with no row seen within STALE_S is away
# (checked every CHECK_S), so a dead process's people are away within STALE_S + CHECK_S (< 30 s).
# A robot plays an away seat after ROBOT_AFTER_AWAY_S; away past LEAVE_AFTER_AWAY_S is leaving.
GAMES_PRESENCE_HEARTBEAT_S = float(os.environ.get("GAMES_PRESENCE_HEARTBEAT_S", "8"))
GAMES_PRESENCE_STALE_S = float(os.environ.get("GAMES_PRESENCE_STALE_S", "25"))
GAMES_PRESENCE_CHECK_S = float(os.environ.get("GAMES_PRESENCE_CHECK_S", "2"))
# A cleanly closed socket keeps its seat present this long (a reload is not "away"); after that its
# seat is away (its process checks it then) and a robot takes it ROBOT_AFTER_CLOSE_S later (0: at
# once): a closed page is not coming back by itself, unlike a silent socket (ROBOT_AFTER_AWAY_S).
GAMES_PRESENCE_RELOAD_S = float(os.environ.get("GAMES_PRESENCE_RELOAD_S", "3"))
GAMES_ROBOT_AFTER_CLOSE_S = float(os.environ.get("GAMES_ROBOT_AFTER_CLOSE_S", "0"))
GAMES_ROBOT_AFTER_AWAY_S = float(os.environ.get("GAMES_ROBOT_AFTER_AWAY_S", "15"))
GAMES_LEAVE_AFTER_AWAY_S = float(os.environ.get("GAMES_LEAVE_AFTER_AWAY_S", "180"))
GAMES_ROBOT_LEVEL = os.environ.get("GAMES_ROBOT_LEVEL", "medium")

# --- Channel layer --------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# A parallel test run (pytest-xdist sets PYTEST_XDIST_WORKER to gw0, gw1, ...): each worker hears only
# its own pub/sub channels and clears only its own cache database (a test's cache.clear() is FLUSHDB).
# Its test database is suffixed by pytest-django itself. Empty outside such a run.
TEST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL:
    # The pub/sub layer: one publish per message, no per-channel queues to poll. Measured with 100
    # players (docs/performance.md) it halved the tail latency of the list-based RedisChannelLayer.
    # It is at-most-once, which the table already copes with: every socket starts from a full
    # snapshot and re-reads an idle table (GAMES_SOCKET_WATCHDOG_S).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Pub/sub channels are global to a Redis server (not per database number): a prefix
            # lets several deployments or test runs share one Redis without hearing each other.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": os.environ.get("CHANNEL_LAYER_PREFIX", "asgi") + TEST_WORKER},
        }
    }
else:
    # Channels' in-memory layer, its expiry sweep throttled (truco_site/layers.py: it was 22 % of the
    # server's time with 200 sockets).
    CHANNEL_LAYERS = {"default": {"BACKEND": "truco_site.layers.ThrottledInMemoryChannelLayer"}}

# --- Cache (allauth's rate limits live here, so processes must share it) ----------------------
if REDIS_URL:
    CACHES = {
        "default": {
            # Redis, or this process's memory while Redis is down (truco_site/cache.py): a dead
            # Redis must not turn sign-in into a 500, nor switch the sign-in lock off.
            "BACKEND": "truco_site.cache.RedisOrLocalCache",
            "LOCATION": redis_database_for_worker(REDIS_URL, TEST_WORKER),
            # A Redis that is unreachable (not just refusing) costs each call at most this long.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Accounts (django-allauth 65) -----------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The username *is* the public display name; allauth lets people sign in with it or the email.
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
# The same forms with the site's words ("Display name", never "Username").
ACCOUNT_FORMS = {
    "login": "accounts.forms.SignInForm",
    "signup": "accounts.forms.SignUpForm",
    "add_email": "accounts.forms.AddEmailForm",
    "reset_password": "accounts.forms.ResetPasswordForm",
}
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.display_name_validators"
# Names are NFKC-normalised and checked against look-alikes; the sign-in lock is keyed on the account.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Behind N proxies that append to X-Forwarded-For, the client's address is the N-th from the end: the
# per-address limits (allauth's sign-in limits, games.match.limits) count the client, not the proxy.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
# allauth's rate limits are on (its defaults), counting in CACHES, shared via Redis; sign-up is tighter:
# its default, 20 form posts a minute per address, let one address open ~28,000 accounts a day, each a
# fresh set of per-account limits (a room's password guessed by many accounts, issue 28). allauth counts
# every post, mistakes included, so 10 in 10 minutes leaves room for them; 30 a day per address
# (docs/decisions.md, "Holding up under abuse and faults"). A refused post gets templates/429.html.
ACCOUNT_RATE_LIMITS = {"signup": "10/10m/ip,30/1d/ip"}
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
LOGIN_URL = "account_login"

# --- Email ----------------------------------------------------------------------------------
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Truco <noreply@localhost>")

# --- Internationalisation -------------------------------------------------------------------
# LocaleMiddleware picks from the browser's Accept-Language; anything else falls back to pt-BR.
LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", _("Portuguese (Brazil)")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "America/Sao_Paulo"
USE_I18N = True
USE_TZ = True

# --- Static and media files -----------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Security (production) ------------------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
# check --deploy counts this; the site never needs to be framed.
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# --- Shop -------------------------------------------------------------------------------------
# Gem packs are paid with real money through one provider: "demo" (pays at once; refused while
# DEBUG is off unless PAYMENTS_DEMO_ENABLED=1) or "stripe" (Checkout + signed webhook).
PAYMENTS_PROVIDER = os.environ.get("PAYMENTS_PROVIDER", "demo")
PAYMENTS_DEMO_ENABLED = env_bool("PAYMENTS_DEMO_ENABLED", False)
STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY", "")
STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET", "")
SHOP_REAL_CURRENCY = os.environ.get("SHOP_REAL_CURRENCY", "brl")
