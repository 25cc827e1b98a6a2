"""Pure-Python Truco rules engine (Paulista and Mineiro); no Django here.

The web layer and bots use only the names below; see docs/engine.md.
"""

from .match import apply, apply_with_moments, is_over, legal_actions, match_winner, new_match, seats_to_act, side_of
from .rules import RuleSet
from .state import Action, IllegalAction, MatchState, from_json, to_json
from .view import SeatView, seat_view, spectator_view

__all__ = [
    "Action",
    "IllegalAction",
    "MatchState",
    "RuleSet",
    "SeatView",
    "apply",
    "apply_with_moments",
    "from_json",
    "is_over",
    "legal_actions",
    "match_winner",
    "new_match",
    "seat_view",
    "seats_to_act",
    "side_of",
    "spectator_view",
    "to_json",
]
