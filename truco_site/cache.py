"""The shared cache: Redis, or this process's memory while Redis does not answer.

allauth's rate limits (sign-up, sign-in, the failed-sign-in lock, password resets) count here. With
Redis down, Django's RedisCache raised ConnectionError and signing in answered 500. Chosen instead:
the limits keep counting, per process, in memory; every call tries Redis again once
RETRY_AFTER_S has passed, so the shared counts come back by themselves when Redis does (counts
made in memory meanwhile stay in that process). Never "no limits while Redis is down": the
failed-sign-in lock must not open because an attacker knocked over the cache.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
RETRY_AFTER_S = 1.0
_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class RedisOrLocalCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self.local = LocMemCache(f"fallback-for-{server}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self.redis_down_until = 0.0

    @property
    def redis_is_up(self) -> bool:
        return time.monotonic() >= self.redis_down_until

    def _either(self, name: str, *args, **kwargs):
        if self.redis_is_up:
            try:
                return getattr(RedisCache, name)(self, *args, **kwargs)
            except _UNREACHABLE as exc:
                log.warning(
                    "cache: Redis does not answer (%s); counting in this process for %.0f s", exc, RETRY_AFTER_S
                )
                self.redis_down_until = time.monotonic() + RETRY_AFTER_S
        return getattr(self.local, name)(*args, **kwargs)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._either("delete", key, version)

    def get_many(self, keys, version=None):
        return self._either("get_many", keys, version)

    def has_key(self, key, version=None):
        return self._either("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._either("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._either("delete_many", keys, version)

    def clear(self):
        self.local.clear()
        return self._either("clear")
