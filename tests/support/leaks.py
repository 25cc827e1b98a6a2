"""Scanning what reaches a browser (or a seat's group) for cards its viewer may not see."""

import re
from collections.abc import Mapping
from typing import Any

from games import engine
from games.engine.cards import CARD_NAMES
from games.engine.view import spectator_view  # bound here: a test may replace the site's with a leaking one

# A card in a frame: its code (data-card="4C", hx-vals), its symbol in the sprite (the faces drawn by
# games/_card.html and _mini_card.html: `<use href=".../cards.svg#card-4C"/>`), or a face written as text.
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])([4567QJKA23][CHSD])(?![A-Za-z0-9_\-])")
SPRITE_CARD = re.compile(r"#card-([4567QJKA23][CHSD])(?![A-Za-z0-9_\-])")
FACE = re.compile(r'<span class="rank">([^<]+)</span><span class="suit">(.)</span>')
SUIT_OF = {"♣": "C", "♥": "H", "♠": "S", "♦": "D"}


def cards_shown(frame: str) -> set[str]:
    shown = set(CARD_TOKEN.findall(frame)) | set(SPRITE_CARD.findall(frame))
    shown |= {rank + SUIT_OF[suit] for rank, suit in FACE.findall(frame)}
    return shown


def view_of(state, seat: int | None) -> Mapping[str, Any]:
    """The seat's view, or the spectator view for `seat` None (a spectator's socket)."""
    return engine.seat_view(state, seat) if seat is not None else spectator_view(state)


def allowed_for(state, seat: int | None) -> set[str]:
    """Every card this seat (None: a spectator) may legitimately see now (its view is the authority)."""
    view = view_of(state, seat)
    allowed = set(view["hand"]) | set(view["manilhas"])
    allowed |= {c for cards in view["partner_hands"].values() for c in cards}
    allowed.add(view["vira"])
    plays = list(view["trick"]) + [p for r in view["rounds"] for p in r["plays"]]
    if view["last_hand"]:
        plays += [p for r in view["last_hand"]["rounds"] for p in r["plays"]] + view["last_hand"]["unfinished_round"]
    allowed |= {p["card"] for p in plays if p["card"]}
    allowed |= {p["hidden"] for p in plays if p.get("hidden")}  # online Mineiro: own, or shown by the rules
    return allowed - {None}


def hidden_from(state, seat: int | None) -> set[str]:
    """Cards the seat must not see: everyone else's unplayed cards, the stock, others' face-down cards.
    For a spectator (`seat` None) "everyone else" is everyone."""
    hidden = {CARD_NAMES[c] for s, hand in enumerate(state.hands) if s != seat for c in hand}
    hidden |= {CARD_NAMES[c] for c in state.stock}
    plays = list(state.trick) + [p for r in state.rounds for p in r[2]]
    hidden |= {CARD_NAMES[c] for s, c, down in plays if down and s != seat}
    hidden = hidden - allowed_for(state, seat)
    if not state.over:
        # Beneath others' double plays (online Mineiro), judged by the state, not by the view: until
        # the hand ends nothing may show them (they are shown only as the hand ends; in a replay's
        # moments, also once turned up as round 3, where they lie face up on the felt).
        # (Mineiro's four manilhas are printed on every table, and the last hand's summary shows
        # that hand's cards, dealt again since: neither proves anything either way.)
        public = set(view_of(state, seat)["manilhas"])
        public |= {CARD_NAMES[c] for s, c, down in plays if not down}
        if state.last_hand:
            plays = [p for r in state.last_hand["rounds"] for p in r["plays"]] + state.last_hand["unfinished_round"]
            public |= {p["card"] for p in plays} | {p.get("hidden") for p in plays}
        hidden |= {CARD_NAMES[c] for s, c in state.hidden if s != seat} - public
    return hidden
