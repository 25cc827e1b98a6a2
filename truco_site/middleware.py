"""The query string as every view reads it: what no page can use is taken out before any view runs (issue 28).

- A parameter value holding a NUL byte is dropped (a name holding one drops the parameter):
  PostgreSQL refuses NUL in text, so such a value that reached a query answered 500
  (`GET /rooms/?again=%00`). No parameter of any page has a use for one, and SQLite takes it,
  which is how the bug hid in the default setup. Dropped rather than cut out: "a\\x00b" is not "ab".
- A blank `_to_field` is dropped: Django's admin (5.2) looks a blank field name up on its object
  pages (`get_field("")`) and fails; a blank one means none.

Everything else is each page's to read: through a form, or a parser that takes only what it can use
(every GET parameter of every page is fuzzed by tests/site/test_junk_in_queries.py).
"""

from __future__ import annotations

from django.http import QueryDict

NUL = "\x00"
# Parameters that mean nothing when blank and break a reader that takes them as given.
BLANK_MEANS_NONE = ("_to_field",)


def clean_query(get_response):
    def middleware(request):
        request.GET = cleaned(request.GET)
        return get_response(request)

    return middleware


def cleaned(query: QueryDict) -> QueryDict:
    """The query without values holding NUL and without blank parameters that mean none."""
    if not any(_dropped(name, value) for name, values in query.lists() for value in values):
        return query  # the usual case: the request's own query, not a copy
    kept = QueryDict(mutable=True, encoding=query.encoding)
    for name, values in query.lists():
        values = [value for value in values if not _dropped(name, value)]
        if values:
            kept.setlist(name, values)
    kept._mutable = False  # as Django hands it to a view
    return kept


def _dropped(name: str, value: str) -> bool:
    return NUL in name or NUL in value or (name in BLANK_MEANS_NONE and not value.strip())
