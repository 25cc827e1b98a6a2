"""Run one function in several threads at once, each with its own database connection."""

import threading

from django.db import connections


def run_in_threads(count, target, timeout=120):
    """Start `target(n)` for n in range(count) together (a barrier); returns (results, errors)."""
    barrier = threading.Barrier(count)
    results, errors = [], []

    def worker(n):
        try:
            barrier.wait()
            results.append(target(n))
        except Exception as exc:  # collected, then asserted on
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return results, errors
