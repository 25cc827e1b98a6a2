"""Hypothesis strategies shared by the engine's property tests and the bots' tests."""

from hypothesis import strategies as st

from games.engine import RuleSet


@st.composite
def rulesets(draw, targets=(12,)):
    """Any legal RuleSet: both variants and decks, 2 or 4 seats, partnership, house rules."""
    seats = draw(st.sampled_from([2, 4]))
    return RuleSet(
        variant=draw(st.sampled_from(["paulista", "mineiro"])),
        deck=draw(st.sampled_from(["dirty", "clean"])),
        seats=seats,
        partnership=draw(st.booleans()) if seats == 4 else False,
        face_down=draw(st.booleans()),
        all_tied=draw(st.sampled_from(["dealer", "nobody"])),
        target=draw(st.sampled_from(targets)),
    )
