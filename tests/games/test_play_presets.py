"""The Play page's four tables (issue 30 item 7): each preset starts its match; the options that do not apply
to the chosen table are marked for the page to hide and ignored by the server; a refused value says why;
the last options are remembered, the table spelled out as variant and seats."""

import re

import pytest
from django.urls import reverse

from games import engine
from games.engine.bots.signs import own_sign
from games.forms import LAST_OPTIONS_KEY
from games.models import Match, Tournament
from tests.support.matches import PLAY_FORM

pytestmark = pytest.mark.django_db

# What the Play page posts: a table and the options (variant and seats are the table's).
PAGE_FORM = {name: value for name, value in PLAY_FORM.items() if name not in ("variant", "seats")}


def checked(html: str, name: str) -> list[str]:
    """The values of the radio buttons named `name` that the page shows chosen."""
    return re.findall(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*\schecked[\s>]', html)


def start(client, preset: str, **more):
    return client.post(reverse("games:play"), {**PAGE_FORM, "preset": preset, **more}, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize("preset", ["paulista-2", "paulista-4", "mineiro-2", "mineiro-4"])
def test_each_table_starts_its_match_in_one_post(signed_in_client, preset):
    variant, seats = preset.split("-")[0], int(preset.split("-")[1])
    response = start(signed_in_client, preset)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[match.public_id])
    # The rule book's game for that table: teams with four seats, the variant's own face-down default.
    assert match.rules == engine.RuleSet(variant=variant, seats=seats).to_dict()
    assert match.rules["partnership"] is (seats == 4)
    assert match.seats.count() == seats and match.bot_level == "easy"


def test_the_table_chosen_wins_over_a_variant_and_seats_posted_beside_it(signed_in_client):
    start(signed_in_client, "mineiro-4", variant="paulista", seats="2")
    assert (Match.objects.get().rules["variant"], Match.objects.get().rules["seats"]) == ("mineiro", 4)


def test_options_that_do_not_apply_to_the_table_are_ignored(signed_in_client):
    # Teams and the Mineiro style mean nothing at Paulista for two: the match is the plain one.
    start(signed_in_client, "paulista-2", partnership="no", mineiro_style="online")
    assert Match.objects.get().rules == engine.RuleSet(variant="paulista", seats=2).to_dict()
    Match.objects.all().delete()
    # At Mineiro for four both apply.
    start(signed_in_client, "mineiro-4", partnership="no", mineiro_style="online")
    rules = Match.objects.get().rules
    assert (rules["partnership"], rules["mineiro_style"]) == (False, "online")


def test_a_tournament_ignores_the_ai_level_its_stages_choose_their_own(signed_in_client, user):
    start(signed_in_client, "paulista-2", mode="tournament", bot_level="expert")
    tournament = Tournament.objects.get(user=user)
    match = tournament.matches.get()
    assert match.bot_level == Tournament.STAGE_BOTS[0] != "expert"


def test_a_table_that_is_no_table_is_refused_and_starts_nothing(signed_in_client):
    response = start(signed_in_client, "truco-gaucho")
    html = response.content.decode()
    assert response.status_code == 200 and not Match.objects.exists()
    assert 'data-error-for="preset"' in html and "Select a valid choice" in html


def test_a_bad_value_is_refused_even_in_an_option_that_does_not_apply_and_shows_with_its_message(signed_in_client):
    # A forged post: the page never sends it. The option shows (its group is marked with the error, which
    # the page's CSS shows even where the option does not apply) and "More options" opens on it.
    response = start(signed_in_client, "paulista-2", partnership="maybe")
    html = response.content.decode()
    assert response.status_code == 200 and not Match.objects.exists()
    assert 'class="choices has-error" data-field="partnership"' in html
    assert 'data-error-for="partnership"' in html and '<details class="more-options" data-more-options open>' in html


def test_the_page_marks_the_options_each_table_applies_to(client):
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-field="partnership" data-default="yes" data-applies="four"' in html
    assert 'data-field="mineiro_style" data-default="classic" data-applies="mineiro"' in html
    assert 'data-field="bot_level" data-default="medium" data-applies="single"' in html
    assert 'data-pays="tournament" data-applies="tournament"' in html
    # Options that apply to every table carry no mark, and the table and the AI level are not folded.
    assert 'data-field="deck" data-default="dirty">' in html
    folded = html.split("<details")[1].split("</details>")[0]
    assert 'name="preset"' not in folded and 'name="bot_level"' not in folded and 'name="deck"' in folded
    # No select whose closed box could cut its text: every choice is a radio button.
    form = html.split('class="play-form"')[1].split("</form>")[0]
    assert "<select" not in form


def test_the_page_comes_back_with_the_last_table_and_options_and_quick_play_repeats_them(signed_in_client):
    start(signed_in_client, "mineiro-4", partnership="no", move_seconds="30", bot_level="hard")
    stored = signed_in_client.session[LAST_OPTIONS_KEY]
    assert (stored["variant"], stored["seats"], stored["partnership"]) == ("mineiro", "4", "no")
    assert "preset" not in stored
    html = signed_in_client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert checked(html, "preset") == ["mineiro-4"] and checked(html, "partnership") == ["no"]
    assert checked(html, "bot_level") == ["hard"] and checked(html, "move_seconds") == ["30"]
    # The folded summary names what differs from the defaults; the tile says how four play.
    chosen = html.split("data-more-chosen>")[1].split("</span>")[0]
    assert chosen == "Each for themselves · 30 s"
    mineiro_four = html.split('value="mineiro-4"')[1].split("</label>")[0]
    assert '<span class="preset-teams" data-teams="no">each for themselves</span>' in mineiro_four
    assert 'data-teams="yes" hidden>' in mineiro_four
    # The home page's quick play posts the same options (variant and seats, no preset) and starts them.
    home = signed_in_client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<input type="hidden" name="seats" value="4">' in home and 'name="preset"' not in home
    assert "Mineiro · 4 players, each for themselves · AI: Hard" in home
    quick = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', home))
    quick.pop("csrfmiddlewaretoken", None)
    signed_in_client.post(reverse("games:play"), quick)
    newest = Match.objects.order_by("-id").first()
    assert newest.rules == engine.RuleSet(variant="mineiro", seats=4, partnership=False).to_dict()
    assert (newest.move_seconds, newest.bot_level) == (30, "hard")


def test_the_folded_summary_leaves_out_what_does_not_apply(signed_in_client):
    # "Each for themselves" and the online style were chosen for other tables: Paulista for two shows neither.
    start(signed_in_client, "mineiro-4", partnership="no", mineiro_style="online", deck="clean")
    start(signed_in_client, "paulista-2", partnership="no", mineiro_style="online", deck="clean")
    html = signed_in_client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert html.split("data-more-chosen>")[1].split("</span>")[0] == "Clean (24/27 cards)"
    # Remembered all the same: back at Mineiro for four, they are chosen again.
    assert checked(html, "mineiro_style") == ["online"] and checked(html, "preset") == ["paulista-2"]


def test_the_page_speaks_portuguese_first(client):
    html = client.get(reverse("games:play")).content.decode()
    for words in ("Escolha a mesa", "Mais opções", "4 jogadores", "em duplas", "cada um por si", "1 contra 1"):
        assert words in html, words


def test_partner_signals_count_only_at_a_single_match_of_four_in_teams_and_the_ai_partner_signs(signed_in_client):
    # Four in teams: the table allows signals, and the AI partner (seat 2) signs its first hand to the person.
    start(signed_in_client, "paulista-4", partner_signals="yes")
    match = Match.objects.get()
    state = engine.from_json(match.state)
    assert match.partner_signals and set(match.signals) == {"2"}
    assert match.signals["2"] == {"hand": state.hand_number, "signal": own_sign(engine.seat_view(state, 2))}
    page = signed_in_client.get(reverse("games:table", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en")
    assert f'data-partner-signal="{match.signals["2"]["signal"]}"' in page.content.decode()
    # Anywhere else the option is ignored: two seats, each for themselves, a tournament's stages.
    for preset, more in (
        ("paulista-2", {}),
        ("mineiro-4", {"partnership": "no"}),
        ("mineiro-4", {"mode": "tournament"}),
    ):
        Match.objects.all().delete()
        start(signed_in_client, preset, partner_signals="yes", **more)
        assert not Match.objects.get().partner_signals and Match.objects.get().signals == {}, (preset, more)


def test_the_partner_signals_option_shows_only_for_single_matches_of_four_in_teams(client):
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-field="partner_signals" data-default="no" data-applies="four single teams"' in html
    assert checked(html, "partner_signals") == ["no"]
