"""The post-match analysis on the site (issue 34 items 1-3): asked for from the result and the history, computed
once per match and seat off the table's loop (a thread and a worker process of its own), its progress pushed to
the page, then the accuracy, the costliest decisions with links into the replay and every decision's estimates.
Only the people who played the match see it, and it names no card the seat did not hold."""

import re
import time

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import translation

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import DealtCards, MatchAnalysis, MatchEvent
from games.table import analysing, analysis_page
from games.table.consumers import CLOSE_NOT_YOURS
from games.table.presentation import card_face
from tests.support.matches import finished_match, pushed_fragments
from tests.support.sockets import open_socket


@pytest.fixture
def inline(monkeypatch, settings):
    """The analysis runs where it is asked for, so a test inside one transaction sees it (the thread and the
    worker process are tested below, committed)."""
    settings.GAMES_ANALYSIS_PROCESSES = 0
    started = []
    monkeypatch.setattr(analysing, "start", lambda pk: (started.append(pk), analysing.run(pk)))
    return started


def my_choices(match, seat):
    state = engine.from_json(match.start_state)
    count = 0
    for actor, action in (
        MatchEvent.objects.filter(match=match, action__isnull=False).order_by("id").values_list("seat", "action")
    ):
        if actor == seat and len(engine.legal_actions(state, actor)) > 1:
            count += 1
        state, _ = engine.apply(state, actor, engine.Action.from_dict(action))
    return count


@pytest.mark.django_db
def test_the_analysis_reviews_each_of_my_decisions_once(client, user, inline, django_capture_on_commit_callbacks):
    match = finished_match(user)
    client.force_login(user)
    page = reverse("games:analysis", args=[match.public_id])
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-analysis="none"' in html and 'data-action="start-analysis"' in html
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(page).status_code == 302
    row = MatchAnalysis.objects.get(match=match, seat=0)
    assert row.status == MatchAnalysis.Status.DONE and row.done == row.total == my_choices(match, 0) > 0
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-analysis="done"' in html and re.search(r'data-accuracy="\d+"', html)
    assert len(re.findall(r"data-decision-mark=", html)) == row.total
    assert f"/play/m/{match.public_id}/replay/?step=" in html
    opponent = MatchAnalysis.objects.get(match=match, seat=1)  # at two seats my page sums up the opponent's too
    assert inline == [row.pk, opponent.pk] and opponent.status == MatchAnalysis.Status.DONE
    with django_capture_on_commit_callbacks(execute=True):
        client.post(page)  # asked again: the kept ones, not computed twice
    assert inline == [row.pk, opponent.pk]


@pytest.mark.django_db
def test_the_analysis_names_only_cards_the_seat_held(client, user, inline, django_capture_on_commit_callbacks):
    match = finished_match(user, seed=9)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:analysis", args=[match.public_id]))
    held = {(d.hand_number, card) for d in DealtCards.objects.filter(match=match, seat=0) for card in d.cards}
    for decision in MatchAnalysis.objects.get(match=match, seat=0).decisions:
        for action in [decision["chosen"]] + [e["action"] for e in decision["estimates"]]:
            for card in (action.get("card"), action.get("hidden")):
                assert card is None or (decision["hand_number"], card) in held


@pytest.mark.django_db
def test_a_failed_analysis_starts_again_when_asked(client, user, inline, django_capture_on_commit_callbacks):
    match = finished_match(user)
    MatchAnalysis.objects.create(match=match, seat=0, status=MatchAnalysis.Status.FAILED)
    client.force_login(user)
    html = client.get(reverse("games:analysis", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The analysis stopped before the end." in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:analysis", args=[match.public_id]))
    assert MatchAnalysis.objects.get(match=match, seat=0).status == MatchAnalysis.Status.DONE


@pytest.mark.django_db
def test_only_the_people_who_played_may_see_or_ask_and_only_once_it_is_over(client, user, make_user):
    match = finished_match(user)
    client.force_login(make_user("Stranger"))
    page = reverse("games:analysis", args=[match.public_id])
    assert client.get(page).status_code == 404 and client.post(page).status_code == 404
    assert not MatchAnalysis.objects.exists()
    rules = engine.RuleSet(variant="paulista", seats=2)
    active = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy")
    client.force_login(user)
    answer = client.get(reverse("games:analysis", args=[active.public_id]), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 404 and "This match cannot be analysed" in answer.content.decode()


@pytest.mark.django_db
def test_the_result_and_the_history_offer_the_analysis(client, user):
    match = finished_match(user)
    url = reverse("games:analysis", args=[match.public_id])
    with translation.override("en"):
        assert f'href="{url}" data-action="analysis"' in pushed_fragments(match, 0)["status"]
    client.force_login(user)
    assert f'href="{url}" data-action="analysis"' in client.get(reverse("games:history")).content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_worker_runs_it_off_the_loop_and_the_page_watches_it_fill(user):
    match = await sync_to_async(finished_match)(user)
    page = await open_socket(f"/ws/match/{match.public_id}/analysis/", user)
    assert 'data-analysis="none"' in await page.receive_from(timeout=5)
    await sync_to_async(analysing.request)(match, 0)  # the real thread and worker process
    seen = []
    deadline = time.monotonic() + 90
    while "done" not in seen and time.monotonic() < deadline:
        frame = await page.receive_from(timeout=60)
        seen.append(re.search(r'data-analysis="(\w+)"', frame).group(1))
    assert seen[0] == "running" and seen[-1] == "done"
    assert any("data-analysis-progress" in s or s == "running" for s in seen)
    await page.disconnect()
    await sync_to_async(analysing.shutdown)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_someone_elses_analysis_socket_is_closed(user, make_user):
    match = await sync_to_async(finished_match)(user)
    stranger = await sync_to_async(make_user)("Stranger")
    page = await open_socket(f"/ws/match/{match.public_id}/analysis/", stranger)
    assert (await page.receive_output(timeout=5))["code"] == CLOSE_NOT_YOURS


@pytest.mark.django_db
def test_the_replay_shows_my_decision_at_its_step_and_links_my_mistakes(
    client, user, inline, django_capture_on_commit_callbacks
):
    match = finished_match(user)
    client.force_login(user)
    replay = reverse("games:replay", args=[match.public_id])
    html = client.get(replay, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-replay-decision" not in html and 'data-action="analysis"' in html  # not analysed yet: offered
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:analysis", args=[match.public_id]))
    decisions = MatchAnalysis.objects.get(match=match, seat=0).decisions
    first = decisions[0]
    html = client.get(f"{replay}?step={first['step']}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-replay-decision="{first["mark"]}"' in html and "Up and down jump between your mistakes." in html
    mistakes = sorted(d["step"] for d in decisions if d["mark"] != "good")
    assert mistakes  # the test bot raises whenever it may: some of that is always marked
    html = client.get(f"{replay}?step=1", HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true").content.decode()
    assert f'?step={mistakes[0]}" data-replay-go="next-mistake"' in html
    html = client.get(f"{replay}?step={mistakes[-1] + 1}", HTTP_HX_REQUEST="true").content.decode()
    assert f'?step={mistakes[-1]}" data-replay-go="prev-mistake"' in html and "next-mistake" not in html


@pytest.mark.django_db
def test_the_opponents_summary_names_no_card_they_did_not_show(
    client, user, inline, django_capture_on_commit_callbacks
):
    match = finished_match(user, seed=9)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:analysis", args=[match.public_id]))
    html = client.get(reverse("games:analysis", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    theirs = html.split("data-analysis-of=")[1].split("</section>")[0]
    assert "data-other-accuracy=" in theirs
    shown = {
        e["card"]
        for e in MatchEvent.objects.filter(match=match, seat=1).values_list("data", flat=True)
        if e.get("type") == "card_played" and not e.get("face_down") and e.get("card")
    }
    with translation.override("en"):
        hidden = {
            card_face(card)["label"]
            for dealt in DealtCards.objects.filter(match=match, seat=1)
            for card in dealt.cards
            if card not in shown
        }
    assert hidden and not [label for label in hidden if label in theirs]


def test_anothers_summary_says_a_hidden_card_by_its_kind_never_by_name():
    estimate = {"win": 0.5, "win_half_width": 0.01, "points": 0.0}
    decision = {
        "hand_number": 2,
        "chosen": {"do": "play", "card": "4C", "face_down": True},
        "estimates": [
            {**estimate, "action": {"do": "play", "card": "3H", "face_down": False}},
            {**estimate, "action": {"do": "play", "card": "4C", "face_down": True}},
        ],
        "loss": 0.2,
        "mark": "blunder",
        "call": "truco",
        "eleven": False,
    }
    row = MatchAnalysis(seat=1, status=MatchAnalysis.Status.DONE, decisions=[decision])
    with translation.override("en"):
        (summary,) = analysis_page.others_context([("Zé Bot", row)])
        words = str(summary["costliest"])
        assert summary["accuracy"] == 0 and "face down" in words and "another card" in words
        assert card_face("3H")["label"] not in words and card_face("4C")["label"] not in words
