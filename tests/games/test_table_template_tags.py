"""The table's template tags reuse what they rendered before (games/templatetags/table.py): the HTML must be
exactly what rendering afresh gives, in the viewer's language, for the values the block depends on."""

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.template.loader import render_to_string
from django.utils import translation

from games.table.presentation import card_face
from games.templatetags import table

DECK = {"face_style": "classic", "back_url": "/static/back-a.svg"}
OTHER_DECK = {"face_style": "big", "back_url": "/static/back-b.svg"}


def compile_template(source: str) -> Template:
    return Template("{% load i18n table %}" + source)


def render(source: str | Template, **context) -> str:
    """Render `source` (compile it first to render one template, hence one memo block, again)."""
    template = compile_template(source) if isinstance(source, str) else source
    return template.render(Context(context))


def test_card_tag_gives_exactly_what_the_card_partial_gives():
    for language in ("en", "pt-br"):
        with translation.override(language):
            for face in (card_face("7H"), card_face("AS"), None):
                for deck in (DECK, OTHER_DECK):
                    expected = render_to_string("games/_card.html", {"face": face, "deck": deck})
                    assert render("{% card face %}", face=face, deck=deck) == expected


def test_card_tag_without_a_deck_gives_what_the_partial_gives_without_one():
    with translation.override("en"):
        for face in (card_face("7H"), None):
            expected = render_to_string("games/_card.html", {"face": face})
            assert render("{% card face %}", face=face) == expected
            assert "None" not in expected


def test_card_tag_speaks_the_viewers_language_after_another_language_was_cached():
    with translation.override("en"):
        english = render("{% card face %}", face=card_face("7H"), deck=DECK)
    with translation.override("pt-br"):
        portuguese = render("{% card face %}", face=card_face("7H"), deck=DECK)
        back = render("{% card None %}", deck=DECK)
    assert 'aria-label="7 of hearts"' in english
    assert 'aria-label="7 de copas"' in portuguese
    assert 'aria-label="carta encoberta"' in back


def test_memo_renders_again_when_a_value_it_depends_on_changes():
    source = compile_template("{% memo a %}[{{ a.n }}]{% endmemo %}")
    assert render(source, a={"n": 1}) == "[1]"
    assert render(source, a={"n": 1}) == "[1]"
    assert render(source, a={"n": 2}) == "[2]"


def test_memo_keys_by_language():
    source = compile_template('{% memo n %}{% translate "dealer" %} {{ n }}{% endmemo %}')
    with translation.override("en"):
        assert render(source, n=1) == "dealer 1"
    with translation.override("pt-br"):
        assert render(source, n=1) == "dá as cartas 1"


def test_two_memo_blocks_with_equal_values_keep_their_own_html():
    source = compile_template("{% memo a %}first {{ a }}{% endmemo %} {% memo a %}second {{ a }}{% endmemo %}")
    assert render(source, a=3) == "first 3 second 3"


def test_memo_starts_afresh_when_full(monkeypatch):
    monkeypatch.setattr(table, "MEMO_LIMIT", 3)
    table._memo.clear()
    source = compile_template("{% memo n %}<{{ n }}>{% endmemo %}")
    for n in range(10):
        assert render(source, n=n) == f"<{n}>"
    assert len(table._memo) <= 3


def test_memo_without_values_is_a_template_error():
    with pytest.raises(TemplateSyntaxError, match="needs the values"):
        Template("{% load table %}{% memo %}x{% endmemo %}")


def test_memo_reuses_the_block_for_the_same_values():
    # `b` is not among the values named: by the contract the block must not depend on it, and the
    # second render shows the first one's HTML reused rather than rendered again.
    source = compile_template("{% memo a %}{{ a }}-{{ b }}{% endmemo %}")
    assert render(source, a=1, b="first") == "1-first"
    assert render(source, a=1, b="second") == "1-first"
