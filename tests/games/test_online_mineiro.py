"""Online Mineiro (issue 16) on the site: chosen on the Play page and remembered, stored with the
match, the double play sent from the table and shown with its hidden card face down."""

import pytest
from django.urls import reverse
from django.utils import translation

from games import engine
from games.engine.cards import CARD_NAMES
from games.models import Match
from games.table.socket_actions import parse_socket_action
from tests.support.matches import PLAY_FORM, act, play_to_the_end, pushed_fragments

pytestmark = pytest.mark.django_db

ONLINE_FORM = {**PLAY_FORM, "variant": "mineiro", "mineiro_style": "online"}
ONLINE = engine.RuleSet(variant="mineiro", mineiro_style="online")


def test_the_play_page_offers_the_mineiro_style_in_both_languages(client):
    en = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="mineiro_style"' in en and 'value="online"' in en and "Mineiro style" in en
    pt = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "Estilo do Mineiro" in pt and "nove vale a partida" in pt


def test_an_online_mineiro_match_is_stored_with_its_style_and_remembered(signed_in_client):
    response = signed_in_client.post(reverse("games:play"), ONLINE_FORM)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.rules == ONLINE.to_dict() and match.rules["mineiro_style"] == "online"
    assert engine.from_json(match.state).rules == ONLINE
    # Remember-last-options: the Play page starts from it, the home page's quick play sends it.
    play = signed_in_client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="mineiro_style" value="online" id="id_mineiro_style_1" checked>' in play
    assert 'value="mineiro-2" id="id_preset_2" checked' in play
    home = signed_in_client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<input type="hidden" name="mineiro_style" value="online">' in home
    assert "Online Mineiro · 1 against 1" in home
    # The table names the style.
    table = signed_in_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-mineiro-style="online"' in table


def test_the_style_is_ignored_for_paulista_and_blank_means_classic(signed_in_client):
    signed_in_client.post(reverse("games:play"), {**ONLINE_FORM, "variant": "paulista"})
    signed_in_client.post(reverse("games:play"), {**ONLINE_FORM, "mineiro_style": ""})
    first, second = Match.objects.order_by("id")
    assert first.rules["variant"] == "paulista" and first.rules["mineiro_style"] == "classic"
    assert second.rules["variant"] == "mineiro" and second.rules["mineiro_style"] == "classic"


def test_options_remembered_before_the_style_existed_still_start_quick_play(client):
    old = {k: v for k, v in {**PLAY_FORM, "variant": "mineiro"}.items()}
    session = client.session
    session["games:play_options"] = old
    session.save()
    home = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<input type="hidden" name="variant" value="mineiro">' in home  # not reset to the defaults


def test_a_bad_style_is_refused_with_a_message_and_starts_nothing(signed_in_client):
    response = signed_in_client.post(reverse("games:play"), {**ONLINE_FORM, "mineiro_style": "wild"})
    assert response.status_code == 200 and Match.objects.count() == 0
    assert "mineiro_style" in response.content.decode()


def test_the_double_play_button_sends_both_cards_as_one_action():
    action = parse_socket_action('{"do": "play", "up": "3C", "down": "4D", "v": "5"}')
    assert action.payload == {"do": "play", "cards": ["3C", "4D"], "face_down": False} and action.version == 5
    assert engine.Action.from_dict(action.payload) == engine.Action("play", "3C", hidden="4D")
    scripted = parse_socket_action('{"do": "play", "cards": ["3C", "4D"], "v": 5}')
    assert scripted.payload["cards"] == ["3C", "4D"]


def _double_round_for_seat_0(match):
    """Put the match in its double round: the AI (seat 1) led, round 1 tied, the AI already laid
    2H face up over 5S; now seat 0 lays its two cards."""
    deal = {"hands": [["KC", "3C", "4D"], ["KH", "2H", "5S"]]}
    state = engine.new_match(ONLINE, 1, dealer=0, deals=[deal])
    for seat, action in [
        (1, engine.Action("play", "KH")),
        (0, engine.Action("play", "KC")),
        (1, engine.Action("play", "2H", hidden="5S")),
    ]:
        state, _ = engine.apply(state, seat, action)
    Match.objects.filter(pk=match.pk).update(state=engine.to_json(state), version=match.version + 3)
    match.refresh_from_db()
    return state


def test_the_table_shows_the_others_hidden_card_face_down_and_offers_both_ways_to_lay_mine(start_match, user):
    match = start_match(user, variant="mineiro", mineiro_style="online")
    _double_round_for_seat_0(match)
    fragments = pushed_fragments(match, 0)
    trick, hand = fragments["trick"], fragments["hand"]
    assert 'data-played-by="1"' in trick and 'data-beneath="hidden"' in trick
    assert "5S" not in "".join(fragments.values())  # not as a code, nor as the sprite's card-5S
    assert '<span class="beneath" data-beneath="hidden">' in trick and "#card-back" in trick  # a card back
    assert 'data-action="double-play" data-up="3C" data-down="4D"' in hand
    assert 'data-action="double-play" data-up="4D" data-down="3C"' in hand
    assert '"up": "3C", "down": "4D"' in hand
    # A single card is not offered in the double round.
    assert 'data-card="3C"' not in hand


def test_a_double_play_through_the_move_service_ends_the_hand_and_the_owner_sees_its_own(start_match, user):
    match = start_match(user, variant="mineiro", mineiro_style="online")
    _double_round_for_seat_0(match)
    after = act(match.public_id, 0, {"do": "play", "cards": ["3C", "4D"]}, match.version)
    state = engine.from_json(after.state)
    last = state.last_hand
    # 3C face up beats 2H: round 2 decides, and nobody's hidden card is shown.
    assert last["winner_side"] == 0 and last["reason"] == "tie_then_round2"
    assert [p["hidden"] for p in last["rounds"][1]["plays"]] == [None, None]
    with translation.override("en"):
        status = pushed_fragments(after, 0)["status"]
    assert "round 1 tied: the face-up cards decided" in status
    assert "5S" not in "".join(pushed_fragments(after, 0).values())


def test_an_online_mineiro_match_against_the_ai_plays_to_its_end(start_match, user):
    match = start_match(user, variant="mineiro", mineiro_style="online", level="hard", seed=11)
    play_to_the_end(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert max(match.score) >= 12


def test_no_card_name_of_the_hidden_card_appears_in_any_viewers_fragments_for_four_seats(start_match, user):
    match = start_match(user, variant="mineiro", mineiro_style="online", seats=4)
    deal = {"hands": [["KC", "3C", "4D"], ["KH", "2H", "5S"], ["QC", "JC", "6C"], ["QH", "JH", "6H"]]}
    state = engine.new_match(match_rules := engine.RuleSet.from_dict(match.rules), 1, dealer=3, deals=[deal])
    assert match_rules.mineiro_style == "online"
    for seat, card in [(0, "KC"), (1, "KH"), (2, "QC"), (3, "QH")]:
        state, _ = engine.apply(state, seat, engine.Action("play", card))
    state, _ = engine.apply(state, 0, engine.Action("play", "3C", hidden="4D"))
    state, _ = engine.apply(state, 1, engine.Action("play", "2H", hidden="5S"))
    Match.objects.filter(pk=match.pk).update(state=engine.to_json(state), version=match.version + 6)
    match.refresh_from_db()
    for viewer in range(4):
        html = "".join(pushed_fragments(match, viewer).values())
        for owner, card in state.hidden:
            name = CARD_NAMES[card]
            assert (name in html) == (owner == viewer), (viewer, name)
