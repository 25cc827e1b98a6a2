"""Template tags of the table's fragments."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag(takes_context=True)
def card(context, face):
    """`games/_card.html` for one card (None: a card back), from the context's `deck`.

    The same HTML as `{% include "games/_card.html" with face=... %}`, but rendered once per card,
    deck and language in this process: every update of a table re-renders the same few cards
    (the vira, the manilhas, the trick, the hand), and an include costs a full template render
    each time (docs/performance.md).
    """
    deck = context.get("deck") or {}
    return _card(tuple(face.items()) if face else None, deck.get("face_style"), deck.get("back_url"), get_language())


@lru_cache(maxsize=4096)
def _card(face: tuple | None, face_style: str | None, back_url: str | None, language: str | None) -> str:
    # `language` is only part of the key: the active language (the same one) translates the label.
    # A value the context's deck lacks stays missing (rendered empty, as the include renders it), not None.
    deck = {key: value for key, value in (("face_style", face_style), ("back_url", back_url)) if value is not None}
    return render_to_string("games/_card.html", {"face": dict(face) if face else None, "deck": deck})


# Rendered blocks of `{% memo %}`, by (block, language, the values it depends on). Cleared whole when
# full: an entry is of use only while its hand lasts (minutes), so starting afresh loses little.
MEMO_LIMIT = 5_000  # a few KB each: at most ~15 MB per process
_memo: dict[tuple, str] = {}


@register.tag
def memo(parser, token):
    """`{% memo a b.c %}...{% endmemo %}`: the block rendered once per distinct value of `a` and `b.c`
    (and language) in this process, then reused.

    For the parts of a fragment that stay the same over many updates — the last hand's summary, the
    finished rounds, the vira — while the fragment around them changes on every move. The block
    must depend on nothing but the values named (and the language): that is the contract.
    """
    keys = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not keys:
        raise template.TemplateSyntaxError("{% memo %} needs the values its block depends on")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, keys)


class MemoNode(template.Node):
    def __init__(self, nodelist, keys):
        self.nodelist, self.keys = nodelist, keys

    def render(self, context):
        # repr() of the values: the contexts are plain data (str, int, bool, None, lists, dicts), and a
        # context function builds its dicts in one order, so equal values give one key.
        key = (id(self), get_language(), repr([k.resolve(context) for k in self.keys]))
        html = _memo.get(key)
        if html is None:
            html = self.nodelist.render(context)
            if len(_memo) >= MEMO_LIMIT:
                _memo.clear()
            _memo[key] = html
        return html


@register.filter
def signed(number: int) -> str:
    """A number of coins with its sign, as a wallet line reads: "+15", "−100" (a true minus sign), "0"."""
    number = int(number)
    if number > 0:
        return f"+{number}"
    return f"\u2212{-number}" if number < 0 else "0"
