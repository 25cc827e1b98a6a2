"""Path converters for the identifiers in our URLs: anything else is a 404 before a view runs.

A `str` parameter lets every byte through, and PostgreSQL refuses some (a NUL byte is a
DataError, i.e. HTTP 500). Each converter matches only what its identifier can be.
"""

from django.urls import register_converter


class PublicIdConverter:
    """A match's or tournament's public id (`secrets.token_urlsafe`, at most 16 characters)."""

    regex = r"[A-Za-z0-9_-]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class RoomCodeConverter:
    """A room's code, its invite link (`secrets.token_urlsafe(16)`: 22 characters; up to 32 accepted)."""

    regex = r"[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class DisplayNameConverter:
    """A display name: letters, digits, `_` and `-` (accounts.validators), Unicode-aware."""

    regex = r"[\w-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    register_converter(PublicIdConverter, "public_id")
    register_converter(DisplayNameConverter, "display_name")
    register_converter(RoomCodeConverter, "room_code")
