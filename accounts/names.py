"""Display names people cannot confuse: one canonical spelling, and a key shared by every look-alike.

- `canonical(name)`: Unicode NFKC, so that full-width "Ａｄｍｉｎ", mathematical "𝐀dmin" and the Kelvin
  sign "\u212aelvin" are stored as the plain letters they show.
- `lookalike_key(name)`: two names with the same key look alike to a person: case folded, then every
  character replaced by its prototype from Unicode's confusables list (UTS #39 "skeleton"; the list is
  the `confusable_homoglyphs` package's copy of confusables.txt). The database keeps one user per key.
- `mixes_lookalike_scripts(name)`: letters from several scripts where some look like another script's
  ("Аdmin" with a Cyrillic А), the classic impersonation; refused even when no such name exists yet.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from confusable_homoglyphs.utils import load

_MARKS = "\u200e\u200f"  # the data wraps right-to-left characters in direction marks


def canonical(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip()


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype. The data lists every source under its prototype and
    the prototype under each source; a source has exactly one entry (its prototype)."""
    data = load("confusables.json")
    mapping = {}
    for key, entries in data.items():
        source = key.strip(_MARKS)
        if len(source) != 1 or len(entries) != 1:
            continue  # a prototype (several sources), or a sequence: not a single character to replace
        target = entries[0]["c"].strip(_MARKS)
        if len(data.get(entries[0]["c"], [])) == 1 and len(target) == 1:
            target = min(source, target)  # a pair that only knows each other: either can stand for both
        if target != source:
            mapping[source] = target
    return mapping


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))


def lookalike_key(name: str) -> str:
    # Case folded first, as UTS #39 does for case-insensitive identifiers ("ADMIN" meets "admin"; the
    # price is that a capital I is compared as an i, not as the l it looks like). Some prototypes are
    # capitals (a zero looks like an O): fold and map once more, so "B0b" meets "bob".
    once = _skeleton(canonical(name).casefold())
    return unicodedata.normalize("NFC", _skeleton(once.casefold()))


def mixes_lookalike_scripts(name: str) -> bool:
    return bool(confusables.is_dangerous(canonical(name)))
