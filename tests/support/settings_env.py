"""Reading the settings in a fresh process with a chosen environment (settings are read once, at import)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the test run's own environment sets and a probe must not inherit.
CLEAN_KEYS = (
    "TEST_DB_NAME",
    "DATABASE_POOL_SIZE",
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "EMAIL_HOST",
)


def run_with_env(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run `python -c code` in the project with the test run's environment minus CLEAN_KEYS, plus `env`."""
    base = {k: v for k, v in os.environ.items() if k not in CLEAN_KEYS}
    base.update(env, DJANGO_SETTINGS_MODULE="truco_site.settings")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True, timeout=60)
