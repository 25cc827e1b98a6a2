"""Online Mineiro (issue 16): every stored RuleSet gains `mineiro_style` ("classic", what it played
before) and every stored engine state the `hidden` cards of a double play (none), so that stored
matches keep the engine's exact JSON round trip."""

from django.db import migrations


def add_keys(apps, schema_editor) -> None:
    Match = apps.get_model("games", "Match")
    Tournament = apps.get_model("games", "Tournament")
    for match in Match.objects.only("pk", "rules", "state").iterator():
        rules, state = match.rules, match.state
        changed = False
        if isinstance(rules, dict) and "mineiro_style" not in rules:
            rules["mineiro_style"] = "classic"
            changed = True
        if isinstance(state, dict):
            if isinstance(state.get("rules"), dict) and "mineiro_style" not in state["rules"]:
                state["rules"]["mineiro_style"] = "classic"
                changed = True
            if "hidden" not in state:
                state["hidden"] = []
                changed = True
        if changed:
            Match.objects.filter(pk=match.pk).update(rules=rules, state=state)
    for tournament in Tournament.objects.only("pk", "rules").iterator():
        if isinstance(tournament.rules, dict) and "mineiro_style" not in tournament.rules:
            tournament.rules["mineiro_style"] = "classic"
            Tournament.objects.filter(pk=tournament.pk).update(rules=tournament.rules)


def remove_keys(apps, schema_editor) -> None:
    Match = apps.get_model("games", "Match")
    Tournament = apps.get_model("games", "Tournament")
    for match in Match.objects.only("pk", "rules", "state").iterator():
        rules, state = match.rules, match.state
        if isinstance(rules, dict):
            rules.pop("mineiro_style", None)
        if isinstance(state, dict):
            state.pop("hidden", None)
            if isinstance(state.get("rules"), dict):
                state["rules"].pop("mineiro_style", None)
        Match.objects.filter(pk=match.pk).update(rules=rules, state=state)
    for tournament in Tournament.objects.only("pk", "rules").iterator():
        if isinstance(tournament.rules, dict):
            tournament.rules.pop("mineiro_style", None)
            Tournament.objects.filter(pk=tournament.pk).update(rules=tournament.rules)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_state_trick_key")]

    operations = [migrations.RunPython(add_keys, remove_keys)]
