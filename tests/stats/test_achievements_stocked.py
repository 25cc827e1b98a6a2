"""The stock achievements in code (`stats.achievements.DEFAULTS`) are exactly what the migrations stock.

The test database is built by running every migration (pytest-django), so the `Achievement` rows it
holds are what a fresh install gets: `0003_stock_achievements` and any later migration that changes
them. Each row must agree with `DEFAULTS` on every field (names and descriptions in both languages,
icon, tier, coins) and on the order; a change to one side only fails here (issue 29 item 6: the two
were once reported to disagree on `iron_hand_win`, and no check would have caught it).

A change of a stock achievement therefore takes both: `DEFAULTS`, and a new data migration that
updates the stored rows (a migration never imports `DEFAULTS`: it must not change when the code does).
"""

import pytest

from stats.achievements import DEFAULTS, RULES
from stats.models import Achievement

FIELDS = ("name_en", "name_pt_br", "description_en", "description_pt_br", "icon", "tier", "coin_reward")


def stocked() -> dict[str, tuple]:
    rows = Achievement.objects.order_by("position", "id").values_list("code", *FIELDS)
    return {code: tuple(values) for code, *values in rows}


@pytest.mark.django_db
def test_the_migrations_stock_exactly_the_default_achievements():
    rows = stocked()
    # pytest-django runs the tests on one database before any test that flushes it: an empty table
    # here means the check did not run, never that it passed.
    assert rows, "no stocked achievement in the test database: were the data migrations run?"
    assert list(rows) == list(DEFAULTS), "the same codes, in the same order (the admin's positions)"
    disagreements = {
        code: {
            field: {"stored": stored, "coded": coded}
            for field, stored, coded in zip(FIELDS, rows[code], DEFAULTS[code], strict=True)
            if stored != coded
        }
        for code in DEFAULTS
        if rows[code] != DEFAULTS[code]
    }
    assert not disagreements, f"the migrations' rows disagree with DEFAULTS: {disagreements}"


@pytest.mark.django_db
def test_every_stocked_achievement_has_a_rule_and_is_valid():
    assert set(stocked()) == set(RULES)
    for achievement in Achievement.objects.all():
        achievement.full_clean()  # icon and tier among the choices, lengths within the columns


def test_the_defaults_are_well_formed():
    # (name en, name pt-BR, description en, description pt-BR, icon, tier, coins): a tuple of a
    # wrong length or order would still compare equal to a migration copied from it.
    icons = {value for value, _label in Achievement.Icon.choices}
    tiers = {value for value, _label in Achievement.Tier.choices}
    for code, (name_en, name_pt, desc_en, desc_pt, icon, tier, coins) in DEFAULTS.items():
        assert all(isinstance(text, str) and text for text in (name_en, name_pt, desc_en, desc_pt)), code
        assert icon in icons and tier in tiers, code
        assert isinstance(coins, int) and coins >= 0, code
