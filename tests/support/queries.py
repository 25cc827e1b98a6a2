"""Which query parameters a page reads: a middleware that hands the view a `request.GET` noting every read.

Installed last in MIDDLEWARE by a test (`RECORDER`), so the view sees the query as the site's own
middleware left it. Reading by name (`get`, `[]`, `getlist`, `in`) notes the name; reading the whole
query (iterating, `items`, `dict`, `urlencode`, a copy) notes "everything", which a test answers by
trying every parameter name it knows.
"""

from __future__ import annotations

from django.http import QueryDict

RECORDER = "tests.support.queries.RecordQueryReads"


class Reads:
    def __init__(self):
        self.names: set[str] = set()
        self.everything = False


# What the last request's view read (the test client runs one request at a time).
last = Reads()


class RecordingQueryDict(QueryDict):
    def _note(self, key=None):
        if key is None:
            last.everything = True
        else:
            last.names.add(str(key))

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def getlist(self, key, default=None):
        self._note(key)
        return super().getlist(key, default)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)

    def __iter__(self):
        self._note()
        return super().__iter__()

    def keys(self):
        self._note()
        return super().keys()

    def items(self):
        self._note()
        return super().items()

    def lists(self):
        self._note()
        return super().lists()

    def values(self):
        self._note()
        return super().values()

    def dict(self):
        self._note()
        return super().dict()

    def urlencode(self, safe=None):
        self._note()
        return super().urlencode(safe)

    def copy(self):
        self._note()
        return super().copy()


class RecordQueryReads:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        global last
        last = Reads()
        recording = RecordingQueryDict(mutable=True, encoding=request.GET.encoding)
        for key, values in request.GET.lists():
            recording.setlist(key, values)
        recording._mutable = False
        request.GET = recording
        return self.get_response(request)


def reads() -> Reads:
    return last
