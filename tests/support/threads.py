"""Run code in other threads, each with its own database connection: one function in several threads at once,
or a management command beside the test's own event loop."""

import threading
from io import StringIO

from django.core.management import call_command
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


def command_output(name: str, *args: str, timeout: float = 60) -> str:
    """Run the management command `name` in a thread of its own (it runs its own event loop, which the
    test's thread may not) and return what it printed; any exception it raised is raised here."""
    out, failure = StringIO(), []

    def run():
        try:
            call_command(name, *args, stdout=out)
        except BaseException as exc:  # surfaced below, in the test's own thread
            failure.append(exc)
        finally:
            connections.close_all()  # this thread's connection would keep the test database open

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=timeout)
    assert not worker.is_alive(), f"{name} still running after {timeout} s"
    if failure:
        raise failure[0]
    return out.getvalue()
