"""The pool's error for a database that cannot be reached, importable without loading the backend."""

import psycopg


class DatabaseUnreachable(psycopg.OperationalError):
    """No connection to the database could be made just now (Django raises it as an OperationalError)."""
