"""Hypothesis strategies shared by the engine's property tests and the bots' tests."""

from hypothesis import strategies as st

from games.engine import RuleSet


@st.composite
def rulesets(draw, targets=(12,)):
    """Any legal RuleSet: both variants and decks, 2 or 4 seats, partnership, house rules."""
    seats = draw(st.sampled_from([2, 4]))
    variant = draw(st.sampled_from(["paulista", "mineiro"]))
    return RuleSet(
        variant=variant,
        mineiro_style=draw(st.sampled_from(["classic", "online"])) if variant == "mineiro" else "classic",
        deck=draw(st.sampled_from(["dirty", "clean"])),
        seats=seats,
        partnership=draw(st.booleans()) if seats == 4 else False,
        face_down=draw(st.booleans()),
        all_tied=draw(st.sampled_from(["dealer", "nobody"])),
        target=draw(st.sampled_from(targets)),
    )


@st.composite
def online_mineiro_rulesets(draw, targets=(12,)):
    """Online Mineiro only (seed 002's ladder and double play), every other option drawn."""
    seats = draw(st.sampled_from([2, 4]))
    return RuleSet(
        variant="mineiro",
        mineiro_style="online",
        deck=draw(st.sampled_from(["dirty", "clean"])),
        seats=seats,
        partnership=draw(st.booleans()) if seats == 4 else False,
        face_down=draw(st.booleans()),
        all_tied=draw(st.sampled_from(["dealer", "nobody"])),
        target=draw(st.sampled_from(targets)),
    )
