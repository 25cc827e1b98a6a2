"""Stored matches written before the engine called the round's cards `trick` still load after migrating."""

import importlib

from django.apps import apps

from games import engine
from games.models import Match

migration = importlib.import_module("games.migrations.0004_state_trick_key")


def test_a_state_stored_with_the_old_table_key_loads_after_the_rename(start_match):
    match = start_match()
    old = dict(match.state)
    old["table"] = old.pop("trick")
    Match.objects.filter(pk=match.pk).update(state=old)

    migration.rename_key(apps, "table", "trick")

    match.refresh_from_db()
    assert "table" not in match.state
    assert engine.to_json(engine.from_json(match.state)) == match.state


migration_0005 = importlib.import_module("games.migrations.0005_mineiro_style_and_hidden_cards")


def test_a_match_stored_before_online_mineiro_gains_its_keys_and_round_trips(start_match):
    match = start_match()
    old_state = dict(match.state)
    old_state.pop("hidden")
    old_state["rules"] = {k: v for k, v in old_state["rules"].items() if k != "mineiro_style"}
    old_rules = {k: v for k, v in match.rules.items() if k != "mineiro_style"}
    Match.objects.filter(pk=match.pk).update(state=old_state, rules=old_rules)

    migration_0005.add_keys(apps, None)

    match.refresh_from_db()
    assert match.state["hidden"] == [] and match.state["rules"]["mineiro_style"] == "classic"
    assert match.rules["mineiro_style"] == "classic"
    assert engine.to_json(engine.from_json(match.state)) == match.state
