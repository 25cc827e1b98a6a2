"""The engine's state JSON calls the cards of the round in play `trick` (was `table`, a word the site
uses for the live table): rename the key in every stored match."""

from django.db import migrations


def rename_key(apps, old: str, new: str) -> None:
    Match = apps.get_model("games", "Match")
    for match in Match.objects.only("pk", "state").iterator():
        state = match.state
        if isinstance(state, dict) and old in state:
            state[new] = state.pop(old)
            Match.objects.filter(pk=match.pk).update(state=state)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_match_seat_bots")]

    operations = [
        migrations.RunPython(
            lambda apps, schema_editor: rename_key(apps, "table", "trick"),
            lambda apps, schema_editor: rename_key(apps, "trick", "table"),
        ),
    ]
