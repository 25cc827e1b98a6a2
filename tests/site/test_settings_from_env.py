"""Settings come from the environment: databases, channel layer, secret key, deploy checks."""

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from tests.support.settings_env import CLEAN_KEYS, ROOT, run_with_env

PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'name': str(s.DATABASES['default']['NAME']), "
    "'test_name': str(s.DATABASES['default']['TEST']['NAME']), 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], "
    "'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, 'email': s.EMAIL_BACKEND, 'csrf': s.CSRF_TRUSTED_ORIGINS, "
    "'conn_max_age': s.DATABASES['default']['CONN_MAX_AGE'], "
    "'pool': s.DATABASES['default'].get('OPTIONS', {}).get('pool'), 'cache': s.CACHES['default']['BACKEND']}))"
)


def settings_with(**env: str) -> dict:
    result = run_with_env(PROBE, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_default_is_sqlite_file_and_in_memory_layer():
    s = settings_with()
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"].endswith("db.sqlite3")
    assert s["test_name"].endswith("test_db.sqlite3")  # a file, so a live server process sees it
    assert s["layer"] == "truco_site.layers.ThrottledInMemoryChannelLayer"
    assert s["debug"] is True
    assert s["email"] == "django.core.mail.backends.console.EmailBackend"


def test_database_url_selects_postgresql_with_a_bounded_pool_of_connections():
    s = settings_with(DATABASE_URL="postgres://someone@db.example:5432/truco")
    assert s["engine"] == "truco_site.postgresql"  # Django's, with a safety net for the pool
    assert s["name"] == "truco"
    assert s["test_name"] == "test_truco"
    assert s["conn_max_age"] == 0  # the pool keeps them, at most DATABASE_POOL_SIZE per process
    assert s["pool"] == {"min_size": 2, "max_size": 8, "timeout": 10.0, "reconnect_timeout": 5.0}
    assert (
        settings_with(DATABASE_URL="postgres://someone@db.example:5432/truco", DATABASE_POOL_SIZE="3")["pool"][
            "max_size"
        ]
        == 3
    )


def test_sqlite_keeps_its_connections_without_a_pool():
    s = settings_with()
    assert s["conn_max_age"] == 600 and s["pool"] is None


def test_redis_url_selects_the_redis_pubsub_channel_layer_and_the_cache_that_survives_redis():
    s = settings_with(REDIS_URL="redis://127.0.0.1:6379/0")
    assert s["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert s["cache"] == "truco_site.cache.RedisOrLocalCache"


def test_hosts_and_trusted_origins_come_from_env():
    s = settings_with(ALLOWED_HOSTS="truco.example, www.truco.example", CSRF_TRUSTED_ORIGINS="https://truco.example")
    assert s["hosts"] == ["truco.example", "www.truco.example"]
    assert s["csrf"] == ["https://truco.example"]


def test_smtp_email_when_email_host_is_set():
    assert settings_with(EMAIL_HOST="smtp.example")["email"] == "django.core.mail.backends.smtp.EmailBackend"


def test_production_refuses_to_start_without_a_secret_key():
    result = run_with_env(PROBE, DEBUG="0", ALLOWED_HOSTS="truco.example")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_is_clean_with_production_env():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in CLEAN_KEYS},
            "DEBUG": "0",
            "SECRET_KEY": "x" * 20 + "production-secret-key-with-enough-entropy-0123456789",
            "ALLOWED_HOSTS": "truco.example",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="runs against the CI PostgreSQL")
def test_suite_runs_on_the_configured_postgresql(db):
    assert connection.vendor == "postgresql"
