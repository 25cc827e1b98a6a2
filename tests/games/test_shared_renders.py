"""A process renders what two viewers of one version see alike once (games.table.rendering.SharedRenders), and
fragments never localize their numbers: the HTML must be exactly what each viewer's own render gives."""

import io
import random

import pytest
from django.core.management import call_command
from django.utils import translation

from games import engine
from games.models import Match
from games.selectors import seats_at
from games.table import rendering
from games.table.publishing import seat_updates
from shop.selectors import equipped_deck
from tests.support.matches import act, make_table

pytestmark = pytest.mark.django_db


def seat_contexts(match, facts, deck) -> dict[int, dict]:
    """Each seat's fragment contexts for the version just stored, as its socket builds them."""
    return {
        seat: rendering.update_contexts(table, rendering.TableFacts(seats=tuple(facts), deck=deck))
        for seat, table in seat_updates(match).items()
    }


def test_four_seats_sharing_renders_get_exactly_the_html_each_would_render_alone(make_user):
    match, users = make_table(make_user, 4, seed=7)
    facts = rendering.seat_facts(seats_at(match))
    deck = equipped_deck(users[0])
    shared_store = rendering.SharedRenders()
    previous = {seat: None for seat in range(4)}
    rng = random.Random(7)
    reused = 0
    with translation.override("pt-br"):
        for _ in range(120):
            if match.status != Match.Status.ACTIVE:
                break
            state = engine.from_json(match.state)
            seat = engine.seats_to_act(state)[0]
            match = act(match.public_id, seat, rng.choice(engine.legal_actions(state, seat)).to_dict(), match.version)
            for viewer, contexts in seat_contexts(match, facts, deck).items():
                shared = shared_store.for_version(match.pk, "pt-br", match.version)
                kept = sum(len(renders) for renders in shared.values())
                alone = rendering.render_changed(contexts, previous[viewer])
                assert rendering.render_changed(contexts, previous[viewer], shared=shared) == alone
                # Each fragment rendered anew adds one entry; the others came from another seat's renders.
                reused += len(alone) - (sum(len(renders) for renders in shared.values()) - kept)
                previous[viewer] = contexts
    assert reused > 0  # partners' scoreboards at least: the sharing happened


def test_partners_scoreboard_is_rendered_once_and_their_hands_each(make_user, monkeypatch):
    match, users = make_table(make_user, 4, seed=3)
    contexts = seat_contexts(match, rendering.seat_facts(seats_at(match)), equipped_deck(users[0]))
    assert contexts[0]["scoreboard"] == contexts[2]["scoreboard"]  # partners: the same side's score
    rendered = []
    real = rendering.render_fragment

    def counting(region, context, *, oob=False):
        rendered.append(region)
        return real(region, context, oob=oob)

    monkeypatch.setattr(rendering, "render_fragment", counting)
    store = rendering.SharedRenders()
    with translation.override("en"):
        first = rendering.render_changed(contexts[0], None, shared=store.for_version(match.pk, "en", match.version))
        second = rendering.render_changed(contexts[2], None, shared=store.for_version(match.pk, "en", match.version))
    assert first["scoreboard"] == second["scoreboard"]
    assert rendered.count("scoreboard") == 1
    assert rendered.count("hand") == 2 and first["hand"] != second["hand"]


def test_a_socket_behind_the_others_neither_uses_nor_replaces_the_newer_renders():
    store = rendering.SharedRenders()
    newer = store.for_version(1, "en", 9)
    newer["signals"] = [("context", "html of version 9")]
    behind = store.for_version(1, "en", 8)
    assert behind == {}
    assert store.for_version(1, "en", 9) is newer
    assert store.for_version(1, "en", 10) == {}  # the next version starts afresh


def test_languages_do_not_share_renders():
    store = rendering.SharedRenders()
    store.for_version(1, "en", 3)["signals"] = [("context", "<en>")]
    assert store.for_version(1, "pt-br", 3) == {}


def test_the_least_recently_used_match_is_dropped_past_the_limit():
    store = rendering.SharedRenders(limit=2)
    store.for_version(1, "en", 1)["signals"] = [("a", "1")]
    store.for_version(2, "en", 1)["signals"] = [("b", "2")]
    store.for_version(1, "en", 1)  # match 1 used again: match 2 is now the oldest
    store.for_version(3, "en", 1)
    assert store.for_version(1, "en", 1) == {"signals": [("a", "1")]}
    assert store.for_version(2, "en", 1) == {}


def test_fragments_never_localize_their_numbers(settings):
    # Versions, scores and deadlines are data the page's script reads back: no thousands separator,
    # even where the language has one and the site turned grouping on.
    settings.USE_THOUSAND_SEPARATOR = True
    context = {
        "score": [{"side": 0, "label": "Nós", "points": 12345, "mine": True}],
        "hand_number": 1234,
        "stake": 1,
        "target": 12,
        "variant": "paulista",
    }
    with translation.override("pt-br"):
        html = rendering.render_fragment("scoreboard", context, oob=True)
    assert 'data-score="0">12345</strong>' in html
    assert "1234" in html
    assert "12.345" not in html and "1.234" not in html


def test_the_render_benchmark_prints_every_seat_alone_and_shared():
    out = io.StringIO()
    call_command("bench_table_render", runs=1, moves=20, seats=4, stdout=out)
    header, row = out.getvalue().splitlines()[1:3]
    assert header.split()[-2:] == ["alone/move", "shared/move"]
    alone, shared = (float(x) for x in row.split()[-2:])
    assert alone > 0 and shared > 0
