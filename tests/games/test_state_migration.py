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
