"""Spectators (a match that allows them: anyone signed in watches the spectator view, never acts, and the
players see how many watch) and partner signals (4-seat team matches that enable them: only the partner
ever receives a signal, and it lasts until its hand ends)."""

import json
import random
import re

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client

from games import engine
from games.match.moves import ActionRefused, apply_action
from games.match.signals import send_signal
from games.models import Match, Spectator
from games.table.publishing import publish_move, publish_signal, seat_group, spectator_group
from tests.support.leaks import cards_shown, hidden_from
from tests.support.matches import act, make_table
from tests.support.sockets import connect, drain, error_code, send_frame, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
LANG = (b"accept-language", b"en")
PARTNER_SIGNAL = re.compile(r'data-partner-signal="([a-z]+)"')


class RecordingLayer:
    def __init__(self):
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        self.sent.append((group, message))


def table(make_user, seats=4, *, partnership=None, spectators=True, signals=True, seed=6, **options):
    match, users = make_table(make_user, seats, partnership=partnership, seed=seed, **options)
    Match.objects.filter(pk=match.pk).update(allow_spectators=spectators, partner_signals=signals)
    match.refresh_from_db()
    return match, users


async def socket_of(match, user):
    comm = await connect(match, await sync_to_async(session_cookie)(user), LANG)
    first = await comm.receive_from(timeout=10)
    return comm, first


def page(user, match) -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    response = client.get(f"/play/m/{match.public_id}/", HTTP_ACCEPT_LANGUAGE="en")
    return response.status_code, response.content.decode()


def stored(match) -> Match:
    return Match.objects.get(pk=match.pk)


# --- spectators -------------------------------------------------------------------------------


def test_anyone_signed_in_may_watch_a_match_that_allows_it_and_sees_no_hidden_card(make_user):
    match, _ = table(make_user, 2, signals=False)
    status, html = page(make_user("Watcher"), match)
    assert status == 200
    assert "You are watching" in html
    assert '"do": "play"' not in html  # no button to act
    state = engine.from_json(match.state)
    assert not cards_shown(html) & hidden_from(state, None)


def test_nobody_watches_a_match_that_does_not_allow_it_nor_without_signing_in(make_user):
    closed, _ = table(make_user, 2, spectators=False, signals=False)
    assert page(make_user("Watcher"), closed)[0] == 404
    open_match, _ = table(make_user, 2, signals=False, seed=7)
    assert Client().get(f"/play/m/{open_match.public_id}/").status_code == 404


@pytest.mark.asyncio
async def test_a_stranger_gets_no_socket_at_a_match_without_spectators(make_user):
    match, _ = await sync_to_async(table)(make_user, 2, spectators=False, signals=False)
    comm, first = await socket_of(match, await sync_to_async(make_user)("Watcher"))
    assert error_code(first) == "not_your_match"
    assert (await comm.receive_output())["code"] == 4403
    assert await sync_to_async(Spectator.objects.count)() == 0


@pytest.mark.asyncio
async def test_a_spectator_is_refused_every_action_and_signal_and_nothing_changes(make_user):
    match, users = await sync_to_async(table)(make_user, 4)
    comm, _ = await socket_of(match, await sync_to_async(make_user)("Watcher"))
    await drain(comm)
    state = engine.from_json(match.state)
    seat = engine.seats_to_act(state)[0]
    card = engine.seat_view(state, seat)["hand"][0]
    for frame in (
        f'{{"do": "play", "card": "{card}", "v": "{match.version}"}}',
        '{"do": "signal", "signal": "zap"}',
        '{"do": "raise", "v": "1"}',
        "not json",
    ):
        await send_frame(comm, frame)
        answer = await comm.receive_from(timeout=10)
        assert error_code(answer) == "spectator"
        assert "spectators cannot play or signal" in answer
    after = await sync_to_async(stored)(match)
    assert (after.version, after.state, after.signals) == (match.version, match.state, {})
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_players_see_how_many_people_watch_live(make_user):
    match, users = await sync_to_async(table)(make_user, 2, signals=False)
    player, first = await socket_of(match, users[0])
    assert 'data-spectators="0"' in first
    ana, bia = await sync_to_async(make_user)("Ana"), await sync_to_async(make_user)("Bia")
    ana_tab, ana_first = await socket_of(match, ana)
    assert 'data-spectators="1"' in await player.receive_from(timeout=10)
    assert "You are watching" in ana_first
    ana_second_tab, _ = await socket_of(match, ana)  # one person in two tabs is one spectator
    bia_tab, _ = await socket_of(match, bia)
    assert 'data-spectators="2"' in await player.receive_from(timeout=10)
    await bia_tab.disconnect()
    assert 'data-spectators="1"' in await player.receive_from(timeout=10)
    await ana_second_tab.disconnect()
    assert await player.receive_nothing(0.3)  # still one person watching: nothing to redraw
    assert await sync_to_async(Spectator.objects.count)() == 1
    await ana_tab.disconnect()
    assert 'data-spectators="0"' in await player.receive_from(timeout=10)
    await player.disconnect()


def test_a_move_sends_the_spectators_group_the_spectator_view_only_where_spectators_are_allowed(make_user, monkeypatch):
    layer = RecordingLayer()
    monkeypatch.setattr("games.table.publishing.get_channel_layer", lambda: layer)
    for allowed in (True, False):
        match, _ = table(make_user, 2, spectators=allowed, signals=False, seed=8 if allowed else 9)
        layer.sent.clear()
        async_to_sync(publish_move)(match)
        to_spectators = [m for g, m in layer.sent if g == spectator_group(match.pk)]
        if allowed:
            (message,) = to_spectators
            view = message["table"]["view"]
            assert view["seat"] is None and view["hand"] == [] and message["table"]["signals"] is None
        else:
            assert to_spectators == []


# --- partner signals --------------------------------------------------------------------------


def test_a_signal_message_goes_to_the_two_partners_groups_and_nowhere_else(make_user, monkeypatch):
    layer = RecordingLayer()
    monkeypatch.setattr("games.table.publishing.get_channel_layer", lambda: layer)
    match, _ = table(make_user)
    match = send_signal(match.public_id, 1, "copas")
    async_to_sync(publish_signal)(match, 1)
    assert sorted(g for g, _ in layer.sent) == sorted([seat_group(match.pk, 1), seat_group(match.pk, 3)])
    by_group = dict(layer.sent)
    assert by_group[seat_group(match.pk, 3)]["signals"] == {"enabled": True, "received": "copas", "sent": None}
    assert by_group[seat_group(match.pk, 1)]["signals"] == {"enabled": True, "received": None, "sent": "copas"}


@pytest.mark.parametrize(
    "seats, partnership, enabled, signal, code",
    [
        (2, None, True, "zap", "no_partner"),
        (4, False, True, "zap", "no_partner"),
        (4, True, False, "zap", "signals_off"),
        (4, True, True, "<b>zap</b>", "unknown_signal"),
    ],
    ids=["two-seats", "four-seats-without-partners", "disabled", "unknown"],
)
@pytest.mark.asyncio
async def test_a_signal_where_it_is_not_allowed_is_refused_with_a_message_and_changes_nothing(
    make_user, seats, partnership, enabled, signal, code
):
    match, users = await sync_to_async(table)(make_user, seats, partnership=partnership, signals=enabled)
    comm, first = await socket_of(match, users[0])
    assert ("data-signal-button" in first) == (code == "unknown_signal")  # the panel only where signals work
    await send_frame(comm, json.dumps({"do": "signal", "signal": signal}))
    answer = await comm.receive_from(timeout=10)
    assert error_code(answer) == code
    assert re.search(r'data-error="[a-z_]+">\s*\S', answer)  # a sentence for the player, not a bare code
    after = await sync_to_async(stored)(match)
    assert (after.signals, after.version) == ({}, match.version)
    await comm.disconnect()


def test_a_signal_lasts_until_its_hand_ends_and_a_reload_shows_it_to_the_partner_only(make_user):
    match, users = table(make_user, seed=11)
    send_signal(match.public_id, 0, "zap")
    pages = [page(user, match)[1] for user in users]
    assert PARTNER_SIGNAL.findall(pages[2]) == ["zap"]
    assert 'data-signal-button="zap" aria-pressed="true"' in pages[0]
    assert not PARTNER_SIGNAL.search(pages[1]) and not PARTNER_SIGNAL.search(pages[3])
    assert 'aria-pressed="true"' not in pages[1] + pages[3]
    watcher_page = page(make_user("Watcher"), match)[1]
    assert "data-signal" not in watcher_page and "Zap" not in watcher_page
    # A later signal replaces the first; then the hand ends and the panel is empty again.
    send_signal(match.public_id, 0, "three")
    assert PARTNER_SIGNAL.findall(page(users[2], match)[1]) == ["three"]
    rng = random.Random(1)
    first_hand = engine.from_json(match.state).hand_number
    while engine.from_json(stored(match).state).hand_number == first_hand:
        match = stored(match)
        state = engine.from_json(match.state)
        seat = engine.seats_to_act(state)[0]
        apply_action(match.public_id, seat, rng.choice(engine.legal_actions(state, seat)).to_dict(), match.version)
    assert not PARTNER_SIGNAL.search(page(users[2], match)[1])
    assert stored(match).signals["0"]["signal"] == "three"  # kept, but for a hand that is over


def test_a_finished_match_takes_no_signal(make_user):
    match, _ = table(make_user, seed=12)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
    with pytest.raises(ActionRefused) as refused:
        send_signal(match.public_id, 0, "zap")
    assert refused.value.code == "match_over"


@pytest.mark.asyncio
async def test_over_a_whole_match_no_frame_to_an_opponent_or_a_spectator_carries_a_signal(make_user):
    """Every seat signals at random through its socket while the match is played to its end: each
    signal reaches the sender's and its partner's sockets and nobody else's (the opponents and the
    spectator get no frame at all for it), and every frame to every socket shows only the signal of
    that seat's own partner for the hand in play."""
    match, users = await sync_to_async(table)(make_user, seed=13)
    watcher = await sync_to_async(make_user)("Watcher")
    spectator, _ = await socket_of(match, watcher)
    sockets = [(await socket_of(match, user))[0] for user in users]
    for comm in [spectator, *sockets]:
        await drain(comm, 0.2)
    rng = random.Random(4)
    partner = {0: 2, 1: 3, 2: 0, 3: 1}
    signals_sent = received = cleared = frames_checked = 0
    showing = {n: None for n in range(4)}

    def check(n, frame):
        nonlocal frames_checked, cleared
        frames_checked += 1
        if n is None:
            assert "data-signal" not in frame and "partner-signal" not in frame, "a spectator got a signal"
            return
        entry = stored_now["signals"].get(str(partner[n]))
        expected = entry["signal"] if entry and entry["hand"] == stored_now["hand"] else None
        now = PARTNER_SIGNAL.findall(frame)
        for shown in now:
            assert shown == expected, f"seat {n} was shown {shown!r}, its partner's signal is {expected!r}"
        if '<section id="signals"' in frame:
            cleared += bool(showing[n]) and not now  # a new hand: the partner's last signal is gone
            showing[n] = now[0] if now else None

    for _ in range(800):
        match = await sync_to_async(stored)(match)
        if match.status != Match.Status.ACTIVE:
            break
        state = engine.from_json(match.state)
        stored_now = {"signals": match.signals, "hand": state.hand_number}
        if rng.random() < 0.3:
            sender = rng.randrange(4)
            signal = rng.choice(["zap", "copas", "espadilha", "ouros", "three", "nothing"])
            before = match.signals.get(str(sender))
            changes = before != {"hand": state.hand_number, "signal": signal}
            await send_frame(sockets[sender], json.dumps({"do": "signal", "signal": signal}))
            signals_sent += 1
            # A new signal redraws the sender's panel and the partner's, one frame each; the same signal
            # again changes nothing, and nobody gets a frame.
            frames = (
                {n: await sockets[n].receive_from(timeout=10) for n in (sender, partner[sender])} if changes else {}
            )
            match = await sync_to_async(stored)(match)
            stored_now = {"signals": match.signals, "hand": state.hand_number}
            assert match.signals[str(sender)] == {"hand": state.hand_number, "signal": signal}
            for n, frame in frames.items():
                check(n, frame)
                received += n == partner[sender] and f'data-partner-signal="{signal}"' in frame
            for n in range(4):
                assert await sockets[n].receive_nothing(0.05), f"seat {n} got another frame for seat {sender}'s signal"
            assert await spectator.receive_nothing(0.05), "the spectator got a frame for a signal"
            continue
        seat = engine.seats_to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat)).to_dict()
        await sync_to_async(act)(match.public_id, seat, action, match.version)
        match = await sync_to_async(stored)(match)
        state = engine.from_json(match.state)
        stored_now = {"signals": match.signals, "hand": state.hand_number}
        for n, comm in enumerate(sockets):
            check(n, await comm.receive_from(timeout=10))
        check(None, await spectator.receive_from(timeout=10))
    assert match.status == Match.Status.FINISHED
    assert signals_sent > 20 and received > 10 and cleared > 0 and frames_checked > 200, (
        signals_sent,
        received,
        cleared,
        frames_checked,
    )
    for comm in [spectator, *sockets]:
        await comm.disconnect()
