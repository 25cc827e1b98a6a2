"""The live table for one viewer: one context function per fragment, and the renders of the page and the pushes.

Each fragment is one partial template, `games/_<region>.html`, and one context function here,
`<region>_context`. A context function takes the viewer's engine view (`seat_view`, or the
spectator view: nothing hidden can reach a template) and the few facts of the match it needs as
plain values; none of them reads the database. `table_contexts` reads those facts off the match
row. The page places the same fragments (`page_context`), so a page rendered at version v plus
the fragments pushed for v+1 equals the page rendered at v+1 (tests/games/test_pushed_fragments.py).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, cast

from django.template import Context
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import engine, selectors
from games.match.signals import SIGNALS, signal_facts
from games.models import Match, Seat, Tournament
from games.table import presentation as p
from games.table.publishing import TableUpdate, seat_view_of
from shop import money
from shop.selectors import balances, coins_moved, equipped_deck
from stats.selectors import earned_in, level_of_user, level_reached_in

# What the fragments render from: an engine view (`engine.SeatView`), the table's flags added when the
# match was abandoned or annulled (`viewer_view`), or the same as a message carried it.
TableView = Mapping[str, Any]

# The fragments pushed after every move, in the order they are sent.
REGIONS = ("scoreboard", "seats", "trick", "hand", "actions", "signals", "status", "announce")
# A partner-signals panel for viewers who have none (spectators, 2-seat matches, signals off).
NO_SIGNALS = {"enabled": False, "received": None, "sent": None}


@dataclass(frozen=True)
class Presence:
    """Who is at a room's table now (games.match.presence): the seats away, played by a robot, left.
    Empty for other matches. Changes during a match, so it travels with every push."""

    away: tuple[int, ...] = ()
    robots: tuple[int, ...] = ()
    left: tuple[int, ...] = ()

    @classmethod
    def of(cls, match: Match) -> Presence:
        return cls(tuple(sorted(int(s) for s in match.away_since)), tuple(match.robot_seats), tuple(match.left_seats))

    def state_of(self, seat: SeatFacts) -> str:
        """bot, left (a robot finishes for them), robot (away; a robot plays for now), away, or person (here)."""
        if seat.is_bot:
            return "bot"
        if seat.number in self.left:
            return "left"
        if seat.number in self.robots:
            return "robot"
        return "away" if seat.number in self.away else "person"


NOBODY_AWAY = Presence()
# The viewer's own seat on the felt, named as the table calls you (worded once here: cheaper than a tag).
YOU_LABEL, DEALER_LABEL, PARTNER_LABEL = gettext_lazy("You"), gettext_lazy("dealer"), gettext_lazy("partner")
# What `_seats.html` says of each `Presence.state_of`.
PRESENCE_LABELS = {
    "bot": gettext_lazy("bot"),
    "left": gettext_lazy("left · robot playing"),
    "robot": gettext_lazy("away · robot playing"),
    "away": gettext_lazy("away"),
    "person": gettext_lazy("person"),
}


@dataclass(frozen=True)
class SeatFacts:
    """What the table shows of one seat's occupant; fixed during a match, so read once per snapshot."""

    number: int
    name: str  # "" once the person deleted their account ("Deleted player" in the viewer's language)
    avatar_url: str | None
    is_bot: bool
    has_account: bool  # a signed-in person: their result shows what it paid them
    user_id: int | None = None
    level: int | None = None  # a person with an account's level (issue 33); None for a bot or a guest
    profile_url: str = ""  # a person with an active account's public profile (issue 33); "" for anyone else


def seat_facts(seats: list[Seat]) -> list[SeatFacts]:
    """The facts of every seat, in seat order (pass the seats as `selectors.seats_at` reads them)."""
    facts = []
    for seat in seats:
        user = seat.user
        present = seat.user_id or seat.is_bot or seat.guest_token
        facts.append(
            SeatFacts(
                number=seat.number,
                name=seat.display_name if present else "",
                avatar_url=user.profile.avatar_url if user is not None and hasattr(user, "profile") else None,
                is_bot=seat.is_bot,
                has_account=seat.user_id is not None,
                user_id=seat.user_id,
                level=level_of_user(user) if user is not None and not seat.is_bot else None,
                profile_url=reverse("accounts:public_profile", args=[user.username])
                if user is not None and user.is_active and not seat.is_bot
                else "",
            )
        )
    return facts


@dataclass(frozen=True)
class TableFacts:
    """What a viewer's table keeps for the whole match (who sits where, the viewer's deck, the tournament
    stage, a room's match or not): fixed while it lasts, so a socket reads it once per snapshot."""

    seats: tuple[SeatFacts, ...]
    deck: dict
    public_id: str = ""
    tournament_stage: int | None = None
    tournament_public_id: str | None = None
    room_match: bool = False
    stake_coins: int = 0  # a room's stake in coins: what each person put in the pot
    move_seconds: int = 99  # a person's clock: the whole of the ring drawn around the acting avatar


def table_facts(match: Match, seats: list[Seat], deck: dict) -> TableFacts:
    """The match's `TableFacts` for a viewer whose deck is `deck` (pass the seats with `user__profile` loaded)."""
    stage, public_id = tournament_facts(match)
    return TableFacts(
        seats=tuple(seat_facts(seats)),
        deck=deck,
        public_id=match.public_id,
        tournament_stage=stage,
        tournament_public_id=public_id,
        room_match=match.kind == Match.Kind.ROOM,
        stake_coins=match.stake_coins,
        move_seconds=match.move_seconds,
    )


@dataclass(frozen=True)
class Clock:
    """Whose clock runs and until when, and the last time a clock ran out (the table played for someone)."""

    deadline: datetime | None = None
    deadline_seat: int | None = None
    timed_out_seat: int | None = None
    timed_out_version: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What the result pays the viewer, read from the database (a finished match is always a snapshot):
    `rewards` (coins, rank points), None for a guest; why it pays less (`note`, selectors.reward_note);
    the achievements it unlocked; a tournament final's `prize`; the room's "Play again" page."""

    rewards: tuple[int, int] | None = None
    note: str = ""
    achievements: tuple[dict, ...] = ()
    prize: tuple[int, int] | None = None
    again_url: str = ""
    # What the match moved in the viewer's wallet, so the result adds up to it: (what, coins) lines
    # ("match": its reward; "stake": the pot, less what was put in; "achievements"), and the balances
    # after it, which the result pushes into the page's header.
    coins: tuple[tuple[str, int], ...] = ()
    balances: dict | None = None
    level_up: int | None = None  # the level this match took the viewer up to (issue 33)


NO_OUTCOME = Outcome()


@dataclass(frozen=True)
class ViewerUpdate:
    """One version of the table as one viewer sees it, built once per update: every fragment's context is a
    function of it alone. `view` is the viewer's engine view (nothing hidden can reach a template)."""

    view: TableView
    table: TableFacts
    version: int
    clock: Clock = Clock()
    presence: Presence = NOBODY_AWAY
    signals: dict | None = None
    outcome: Outcome = NO_OUTCOME


def viewer_view(match: Match, seat_number: int | None) -> TableView:
    """The engine's view of the match for this seat (None: a spectator)."""
    state = engine.from_json(match.state)
    view: TableView = (
        seat_view_of(match, state, seat_number) if seat_number is not None else engine.spectator_view(state)
    )
    if match.status == Match.Status.ABANDONED:
        # The engine does not know the match was abandoned (a player left or stopped playing): nobody
        # acts any more, and the result is the one decided then (games.match.moves.abandon_match).
        view = {**view, "legal_actions": [], "seats_to_act": [], "abandoned": True, "match_winner": match.winner_side}
    elif match.status == Match.Status.ANNULLED:
        # Ended by everyone's agreement (rooms.annulment): no winner, nothing counted, stakes returned.
        view = {**view, "legal_actions": [], "seats_to_act": [], "annulled": True}
    return view


# --- one context function per fragment --------------------------------------------------------


def scoreboard_context(u: ViewerUpdate) -> dict:
    """`_scoreboard.html`: the score per side, the hand and its stake, the next raise, hand-of-eleven/iron notices."""
    view, names = u.view, _names(u.table.seats)
    tournament_stage = u.table.tournament_stage
    next_raise = view["next_raise"]
    return {
        # Your side first, as a scoreboard reads at a real table ("Nós 3 × 5 Eles").
        "score": sorted(
            (
                {"side": s, "label": _side_label(view, names, s), "points": points, "mine": s == view["side"]}
                for s, points in enumerate(view["score"])
            ),
            key=lambda entry: not entry["mine"],
        ),
        "tournament_stage": Tournament.STAGES[tournament_stage] if tournament_stage is not None else None,
        "tournament_url": _tournament_url(u.table.tournament_public_id),
        "hand_number": view["hand_number"],
        "stake": view["stake"],
        "target": view["target"],
        "raise_call": p.RAISE_CALLS.get(next_raise["name"]) if next_raise else None,
        "raise_value": next_raise["value"] if next_raise else None,
        "raise_wins_match": bool(next_raise) and p.raise_wins_match(view["rules"], next_raise["name"]),
        "stake_wins_match": p.is_online_mineiro(view["rules"]) and view["stake"] == view["target"],
        "online_mineiro": p.is_online_mineiro(view["rules"]),
        "iron_hand": view["iron_hand"],
        "hand_of_eleven": view["hand_of_eleven"],
        "variant": view["rules"]["variant"],
        "stake_coins": u.table.stake_coins,
    }


def seats_context(u: ViewerUpdate) -> dict:
    """`_seats.html`: every seat around the felt, the viewer's at the bottom: who plays it (a person here
    or away, a bot, a robot for a person away or gone), the others' card backs, who acts now (the clock's
    ring is drawn on that avatar), the dealer, and a raise called from that seat as a shout."""
    view, seats, presence = u.view, u.table.seats, u.presence
    pending = view["pending_raise"]
    caller = pending["seat"] if pending and not view["match_over"] else None
    around = []
    for pl in _players(view, seats):
        state = presence.state_of(seats[pl["number"]])
        # Your own cards are in your hand, not on the felt: your seat need not change as you play.
        cards = 0 if pl["is_me"] else len(pl["cards_left"])
        level = seats[pl["number"]].level
        around.append(
            {
                "number": pl["number"],
                # The seat's classes in one value: the block around the memoised look is drawn for every
                # seat on every render, and each variable a template resolves there costs.
                "classes": " ".join(
                    ["seat", f"pos-{pl['position']}"]
                    + [
                        word
                        for word, on in (("acting", pl["acting"]), ("partner", pl["is_partner"]), ("me", pl["is_me"]))
                        if on
                    ]
                ),
                "shout": p.RAISE_CALLS.get(pending["name"]) if pl["number"] == caller else None,
                # What the seat looks like, drawn once per distinct look (`{% memo %}`): who acts and who
                # shouts change on every move and stay outside it. Labels are worded here rather than in
                # the template: this fragment is drawn again on every move, and a template's translate
                # tags cost more than these calls.
                "look": {
                    "number": pl["number"],
                    "name": str(YOU_LABEL) if pl["is_me"] else pl["name"],
                    "profile_url": "" if pl["is_me"] else seats[pl["number"]].profile_url,
                    "initial": (pl["name"][:1] or "?").upper(),
                    "avatar_url": pl["avatar_url"],
                    "is_me": pl["is_me"],
                    "is_partner": pl["is_partner"],
                    "is_dealer": pl["is_dealer"],
                    "presence": state,
                    "presence_label": str(PRESENCE_LABELS[state]),
                    "cards_left": range(cards),
                    "cards_label": ngettext("%(n)s card", "%(n)s cards", cards) % {"n": cards},
                    # A person with an account's level (issue 33), on the avatar's corner.
                    "level": level,
                    "level_label": _("Level %(level)s") % {"level": level} if level else "",
                },
            }
        )
    return {
        "seats": around,
        "deck": u.table.deck,
        "sprite": sprite_url(),
        "dealer_label": str(DEALER_LABEL),
        "partner_label": str(PARTNER_LABEL),
    }


@lru_cache(maxsize=1)
def sprite_url() -> str:
    """The cards' sprite (static/games/cards.svg), its URL worked out once per process, not per render."""
    return static("games/cards.svg")


def trick_context(u: ViewerUpdate) -> dict:
    """`_trick.html`: the vira and manilhas, the trick on the felt (or the hand's last finished round), the
    round in play, and each finished round of the hand with its cards and who won it."""
    view, names = u.view, _names(u.table.seats)
    # Between rounds the last finished round of this hand stays on the felt (dimmed) until the next card
    # is played. A new hand starts on a clear felt: the last hand is a summary line in the status, never
    # cards beside the new vira.
    plays, previous, collect_to, winner_seat = view["trick"], False, None, None
    if not plays and view["rounds"]:
        last_round = view["rounds"][-1]
        plays, previous, winner_seat = last_round["plays"], True, last_round["winner_seat"]
        # The finished round's cards go to the seat that took it (a tie stays where it is).
        if winner_seat is not None:
            collect_to = p.position_of(_viewer(view), winner_seat, view["seats"])
    on_the_felt = [{**play, "arriving": False} for play in _plays(view, names, plays, view["manilhas"])]
    if on_the_felt:
        # The card just played travels from its seat to the felt (the last of a finished round too).
        on_the_felt[-1] = {**on_the_felt[-1], "arriving": True}
    for play in on_the_felt:
        play["took_it"] = previous and play["seat"] == winner_seat
    return {
        "vira": p.card_face(view["vira"]),
        "manilha_rank": view["manilha_rank"],
        "manilhas": [p.card_face(c, manilha=True) for c in view["manilhas"]],
        "plays": on_the_felt,
        "trick_is_previous": previous and bool(on_the_felt),
        "collect_to": collect_to,
        "round_in_play": view["round"],
        "rounds": [
            {
                "number": r["number"],
                "result": _result_word(view, r["winner_side"]),
                "winner": _side_label(view, names, r["winner_side"]) if r["winner_side"] is not None else None,
                "plays": _plays(view, names, r["plays"], view["manilhas"]),
            }
            for r in view["rounds"]
        ],
        "deck": u.table.deck,
    }


def hand_context(u: ViewerUpdate) -> dict:
    """`_hand.html`: the viewer's name and cards (the playable ones as buttons), partners' cards in a hand of eleven."""
    view, seats, names = u.view, u.table.seats, _names(u.table.seats)
    legal = view["legal_actions"]
    playable = {a["card"] for a in legal if a["do"] == "play" and "card" in a}
    me = view["seat"]
    manilhas = view["manilhas"]
    return {
        "viewer_seat": me,
        "me": _players(view, seats)[me] if me is not None else None,
        # Only buttons carry the version, and there are none without a legal action: then the
        # fragment does not change from one version to the next and is not rendered again
        # (`render_changed`).
        "version": u.version if legal else None,
        "hand": [{"face": _face(code, manilhas), "playable": code in playable} for code in view["hand"]],
        "can_face_down": any(a["do"] == "play" and a.get("face_down") for a in legal),
        # Online Mineiro's double round: one button per way to lay the two cards (face up, hidden beneath).
        "double_plays": [
            {"up": _face(a["cards"][0], manilhas), "down": _face(a["cards"][1], manilhas)}
            for a in legal
            if a["do"] == "play" and "cards" in a
        ],
        "double_round": view.get("double_round", False),
        "hand_of_ten_rule": view.get("double_round", False) and view["hand_kind"] == "eleven",
        "partner_hands": [
            {"name": names[int(s)], "cards": [_face(c, manilhas) for c in cards]}
            for s, cards in view["partner_hands"].items()
        ],
        "deck": u.table.deck,
    }


def actions_context(u: ViewerUpdate) -> dict:
    """`_actions.html`: a pending raise, the hand-of-eleven decision, the raise/accept/run buttons."""
    view, names = u.view, _names(u.table.seats)
    legal_kinds = {a["do"] for a in view["legal_actions"]}
    eleven = view["hand_of_eleven"]
    deciding_eleven = bool(eleven and not eleven["decided"] and {"accept", "run"} & legal_kinds)
    pending = view["pending_raise"]
    next_raise = view["next_raise"]
    return {
        "version": u.version if legal_kinds else None,  # only buttons carry it (as in `hand_context`)
        "variant": view["rules"]["variant"],
        "pending": pending
        and {
            **pending,
            "call": p.RAISE_CALLS.get(pending["name"]),
            "by": names[pending["seat"]],
            "mine": pending["side"] == view["side"],
            "wins_match": p.raise_wins_match(view["rules"], pending["name"]),
        },
        "deciding_eleven": deciding_eleven,
        "can_raise": "raise" in legal_kinds and not deciding_eleven,
        "raise_call": p.RAISE_CALLS.get(next_raise["name"]) if next_raise else None,
        "raise_value": next_raise["value"] if next_raise else None,
        "raise_wins_match": bool(next_raise) and p.raise_wins_match(view["rules"], next_raise["name"]),
        "can_accept": "accept" in legal_kinds and not deciding_eleven,
        "can_run": "run" in legal_kinds and not deciding_eleven,
    }


def status_context(u: ViewerUpdate) -> dict:
    """`_status.html`: whose turn and their clock, a clock that ran out, the last hand, the match result,
    the robots playing for people away or gone (a room's match).

    A room's match ends with "Play again" with the same people (`outcome.again_url`, the rooms app's page)
    and the way back to the rooms, not the Play page against the AI. `outcome.note` says why a result
    pays less than the table says (selectors.reward_note).

    `outcome.rewards` is (coins, rank points) the result pays the viewer, None when it pays them nothing
    (a guest, who is offered to sign up instead). A tournament stage's result says what comes next
    and what the final pays (`outcome.prize`: coins, rank points).
    """
    view, seats, outcome, clock, presence = u.view, u.table.seats, u.outcome, u.clock, u.presence
    rewards, tournament_stage, version = outcome.rewards, u.table.tournament_stage, u.version
    names = _names(seats)
    acting = view["seats_to_act"]
    result: dict[str, Any] | None = None
    abandoned = view.get("abandoned", False)
    if view.get("annulled"):
        result = {"annulled": True, "signed_in": rewards is not None}
    elif view["match_over"] or abandoned:
        won = view["match_winner"] == view["side"]
        result = {
            "won": won,
            "winner": _side_label(view, names, view["match_winner"]),
            # Who the headline speaks to or of: the viewer ("You won", "You lost" to one or all of the
            # side), or, for a spectator, the winners by name.
            "me": _side_subject(view, names, view["side"]) if view["side"] is not None else None,
            "winners": _side_subject(view, names, view["match_winner"]),
            "signed_in": rewards is not None,
            "abandoned": abandoned,
        }
        if rewards is not None:
            result["coins"], result["rank_points"] = rewards
            # Why it pays less than the table says (selectors.reward_note): the page says the truth.
            result["note"] = outcome.note
            # Line by line, what the wallet received: it adds up (the match, the stake, achievements).
            result["coin_lines"] = [{"what": what, "coins": amount} for what, amount in outcome.coins]
            result["coins_total"] = sum(amount for _what, amount in outcome.coins)
            result["balances"] = outcome.balances
        result["tournament"] = (
            _tournament_result(tournament_stage, outcome.prize, won)
            if tournament_stage is not None and not abandoned
            else None
        )
        # Achievements the viewer earned with this match: the table's small notice.
        result["achievements"] = list(outcome.achievements)
        result["level_up"] = outcome.level_up
    # Say so when the table played for someone whose clock ran out, until everyone has moved since.
    timed_out = None
    if (
        clock.timed_out_seat is not None
        and clock.timed_out_version is not None
        and version - clock.timed_out_version < view["seats"]
    ):
        timed_out = names[clock.timed_out_seat]
    # The countdown is for people; an AI seat's short delay is not a clock worth showing.
    deadline, deadline_seat, room_match = clock.deadline, clock.deadline_seat, u.table.room_match
    counting_down = (
        deadline
        and acting
        and deadline_seat is not None
        and not seats[deadline_seat].is_bot
        and deadline_seat not in presence.robots
    )
    me = view["seat"]
    return {
        "version": version,
        "result": result,
        "my_turn": view["seat"] is not None and view["seat"] in acting,
        "acting_names": [names[s] for s in acting],
        "deadline_ms": int(deadline.timestamp() * 1000) if counting_down and deadline is not None else None,
        # The ring on the acting avatar (the page's script draws it and counts the seconds down).
        "clock_seat": deadline_seat if counting_down else None,
        "clock_total_ms": u.table.move_seconds * 1000,
        "clock_for": names.get(deadline_seat) if deadline_seat is not None else None,
        "timed_out": timed_out,
        "last_hand": _last_hand_summary(view, names),
        # Only the result links there (reverse() on every render cost a share of each update).
        "play_again_url": (reverse("rooms:lobby") if room_match else reverse("games:play")) if result else None,
        "room_match": room_match,
        "again_url": outcome.again_url if result else "",
        # A finished match's replay, for the people who played it (a spectator has none).
        "replay_url": reverse("games:replay", args=[u.table.public_id])
        if result and me is not None and u.table.public_id and view["match_over"] and not abandoned
        else "",
        # And the engine's review of the viewer's decisions there (issue 34), asked for from its page.
        "analysis_url": reverse("games:analysis", args=[u.table.public_id])
        if result and me is not None and u.table.public_id and view["match_over"] and not abandoned
        else "",
        "tournament_url": _tournament_url(u.table.tournament_public_id),
        # "Robot playing for NAME" (seed 002): the others see who stands in for whom; the viewer who left
        # is told their seat is the robot's now.
        "robot_for": [{"seat": s, "name": names[s]} for s in presence.robots if s != me] if not result else [],
        "viewer_left": me is not None and me in presence.left,
        "viewer_robot": me is not None and me in presence.robots and me not in presence.left and not result,
    }


def announce_context(u: ViewerUpdate) -> dict:
    """`_announce.html`, the screen reader's live region: the card someone else just played, the round or
    hand that just ended, a raise to answer, a hand of eleven to decide, whose turn it is, the result."""
    view, names = u.view, _names(u.table.seats)
    me = view["seat"]
    latest = view["trick"][-1] if view["trick"] else (view["rounds"][-1]["plays"][-1] if view["rounds"] else None)
    last_round = view["rounds"][-1] if view["rounds"] and not view["trick"] else None
    legal_kinds = {a["do"] for a in view["legal_actions"]}
    eleven = view["hand_of_eleven"]
    pending = view["pending_raise"]
    return {
        "result": view["match_over"]
        and {
            "won": view["match_winner"] == view["side"],
            "me": _side_subject(view, names, view["side"]) if view["side"] is not None else None,
            "winners": _side_subject(view, names, view["match_winner"]),
        },
        "latest_play": _plays(view, names, [latest])[0] if latest and latest["seat"] != me else None,
        "round_result": last_round
        and {
            "number": last_round["number"],
            "winner": _side_label(view, names, last_round["winner_side"])
            if last_round["winner_side"] is not None
            else None,
        },
        "last_hand": _last_hand_summary(view, names) if not view["trick"] and not view["rounds"] else None,
        "pending": pending
        and pending["side"] != view["side"]
        and {
            "by": names[pending["seat"]],
            "call": p.RAISE_CALLS.get(pending["name"]),
            "value": pending["value"],
            "wins_match": p.raise_wins_match(view["rules"], pending["name"]),
        },
        "deciding_eleven": bool(eleven and not eleven["decided"] and {"accept", "run"} & legal_kinds),
        "variant": view["rules"]["variant"],
        "my_turn": me is not None and me in view["seats_to_act"],
        "acting_names": [names[s] for s in view["seats_to_act"]],
    }


def signals_context(facts: dict | None) -> dict:
    """`_signals.html`: the panel of partner signals, the partner's signal and the viewer's own for this hand."""
    facts = facts or NO_SIGNALS
    if not facts["enabled"]:
        return {"enabled": False}

    def named(code):
        return {"code": code, "label": str(SIGNALS[code])} if code in SIGNALS else None

    return {
        "enabled": True,
        "choices": [named(code) for code in SIGNALS],
        "received": named(facts["received"]),
        "sent": named(facts["sent"]),
    }


def spectators_context(count: int, *, allowed: bool, watching: bool) -> dict:
    """`_spectators.html`: how many people watch (players and spectators see it), and whether the viewer is one."""
    return {"allowed": allowed, "count": count, "watching": watching}


def render_spectators(context: dict) -> str:
    return render_fragment("spectators", context, oob=True)


def message_context(text: str, code: str = "") -> dict:
    """`_message.html`: a line for the viewer (an error has a `code`, also in `data-error`); empty clears it."""
    return {"text": text, "code": code}


# --- from the match row to every fragment, and the renders ------------------------------------


def table_contexts(match: Match, table: TableFacts, view: TableView) -> dict[str, dict]:
    """Every pushed fragment's context for the viewer of `view`, with the facts read off the match row."""
    update = ViewerUpdate(
        view=view,
        table=table,
        version=match.version,
        clock=Clock(match.deadline, match.deadline_seat, match.timed_out_seat, match.timed_out_version),
        presence=Presence.of(match),
        signals=signal_facts(match.signals, view, match.partner_signals),
        outcome=_outcome(match, table, view),
    )
    return contexts_for(update)


def _outcome(match: Match, table: TableFacts, view: TableView) -> Outcome:
    """What the match pays the viewer of `view` once it is over (a spectator: nothing but the way out)."""
    me, over = view["seat"], view["match_over"]
    rewards, note, prize, wallet, level_up = None, "", None, None, None
    achievements: tuple[dict, ...] = ()
    coins: tuple[tuple[str, int], ...] = ()
    person_id = table.seats[me].user_id if me is not None else None
    if over and me is not None and person_id is not None:
        seats = selectors.seats_at(match)
        rewards = selectors.reward_amounts(match, match.won_by(me), seats=seats, seat_number=me)
        note = selectors.reward_note(match, seats, seat_number=me)
        achievements = tuple(earned_in(person_id, money.match_reference(match.public_id)))
        person = seats[me].user
        coins, wallet = _coins_of_the_match(person, match, achievements), balances(person)
        played = selectors.played_it(match, seats[me])
        level_up = level_reached_in(person, money.match_reference(match.public_id), played=played)
    if over and match.tournament_stage is not None:
        settings = selectors.reward_settings()
        prize = (settings.tournament_win_coins, settings.tournament_win_rank_points)
    return Outcome(
        rewards=rewards,
        note=note,
        achievements=achievements,
        prize=prize,
        again_url=_again_url(match, me),
        coins=coins,
        balances=wallet,
        level_up=level_up,
    )


def _coins_of_the_match(person, match: Match, achievements: tuple[dict, ...]) -> tuple[tuple[str, int], ...]:
    """What the match moved in the person's coins, line by line, as the ledger has it: its reward, the
    stake (what the pot paid back less what was put in) and the achievements it unlocked."""
    moved = coins_moved(person, money.match_reference(match.public_id))
    lines = [("match", moved.pop("match_reward", 0))]
    stake = sum(moved.values())  # every other line of the match is the stake's: held, won, given back
    if match.stake_coins:
        lines.append(("stake", stake))
    paid = sum(a["coins"] for a in achievements)
    if paid:
        lines.append(("achievements", paid))
    return tuple(lines)


def _again_url(match: Match, me: int | None) -> str:
    """A finished room match offers its people to play again together (the rooms app's page), unless
    someone left it: then they are not "the same people" any more."""
    # `me` None: a spectator, who has nobody to play again with (only "Back to the rooms").
    over = (Match.Status.FINISHED, Match.Status.ANNULLED)  # an annulled match too (issue 12)
    if match.kind != Match.Kind.ROOM or match.status not in over or me is None:
        return ""
    if any(seat.left_at is not None for seat in selectors.seats_at(match)):
        return ""
    return reverse("rooms:again", kwargs={"public_id": match.public_id})


def tournament_facts(match: Match) -> tuple[int | None, str | None]:
    """(stage, tournament public id) of a match: fixed for the match, so a socket keeps them."""
    return match.tournament_stage, (cast(Tournament, match.tournament).public_id if match.tournament_id else None)


def contexts_for(update: ViewerUpdate) -> dict[str, dict]:
    """Every pushed fragment's context from one viewer's update: what a socket renders a published move
    from (`games.table.publishing.TableUpdate`), with no database at hand. What a result pays (`outcome`)
    is read from the database: a finished match is always a snapshot."""
    return {
        "scoreboard": scoreboard_context(update),
        "seats": seats_context(update),
        "trick": trick_context(update),
        "hand": hand_context(update),
        "actions": actions_context(update),
        "signals": signals_context(update.signals),
        "status": status_context(update),
        "announce": announce_context(update),
    }


def update_contexts(table: TableUpdate, facts: TableFacts) -> dict[str, dict]:
    """Every fragment's context for a published version (`games.table.publishing.TableUpdate`), with what a
    socket keeps for the whole match (`TableFacts`)."""
    deadline = datetime.fromtimestamp(table.deadline_ts, UTC) if table.deadline_ts is not None else None
    return contexts_for(
        ViewerUpdate(
            view=table.view,
            table=facts,
            version=table.version,
            clock=Clock(deadline, table.deadline_seat, table.timed_out_seat, table.timed_out_version),
            presence=Presence(tuple(table.away_seats), tuple(table.robot_seats), tuple(table.left_seats)),
            signals=table.signals,
        )
    )


def page_context(match: Match, seats: list[Seat], seat_number: int | None, *, spectator=None) -> dict:
    """The table page: the same fragments as the pushes (not out-of-band), placed by `games/table.html`.
    `seat_number` None is a spectator's page (`spectator`: the person watching, whose deck draws the cards)."""
    view = viewer_view(match, seat_number)
    deck = equipped_deck(seats[seat_number].user if seat_number is not None else spectator)
    fragments = render_regions(table_contexts(match, table_facts(match, seats, deck), view))
    fragments["message"] = render_fragment("message", message_context(""))
    fragments["spectators"] = render_fragment(
        "spectators",
        spectators_context(
            selectors.spectator_count(match.pk) if match.allow_spectators else 0,
            allowed=match.allow_spectators,
            watching=seat_number is None,
        ),
    )
    return {
        "watching": seat_number is None,
        "match": match,
        # A room's person may leave the match (games.match.presence.leave_match): the page's button.
        "can_leave": match.kind == Match.Kind.ROOM
        and match.status == Match.Status.ACTIVE
        and seat_number not in match.left_seats,
        "seat_count": view["seats"],
        "variant": view["rules"]["variant"],
        "deck": deck,
        "fragments": fragments,
    }


# What a replay's board draws of the table: the same fragments as the live table's, from a step's view.
BOARD_REGIONS = ("scoreboard", "seats", "trick", "hand")


def board_fragments(view: TableView, table: TableFacts) -> dict[str, str]:
    """The table as it stood at one step of a replay, drawn by the live table's own fragments from the
    engine's view of that moment (games.table.replay): nothing can be played on it (no legal action, so no
    button), and nothing shows that the view does not."""
    update = ViewerUpdate(view={**view, "legal_actions": []}, table=table, version=0)
    contexts = {
        "scoreboard": scoreboard_context(update),
        "seats": seats_context(update),
        "trick": trick_context(update),
        "hand": hand_context(update),
    }
    return {region: render_fragment(region, contexts[region]) for region in BOARD_REGIONS}


def render_fragment(region: str, context: dict, *, oob: bool = False) -> str:
    # Without localization: every number a fragment shows is an integer that is also data (a
    # version, a score, a deadline in ms, read back by the page's script and by tests), which no
    # language may group or reformat; and localizing each one was a quarter of a fragment's render.
    template = get_template(f"games/_{region}.html").template  # type: ignore[attr-defined]  # Django's backend
    return template.render(Context({**context, "oob": oob}, use_l10n=False))


def render_regions(contexts: dict[str, dict], *, oob: bool = False) -> dict[str, str]:
    return {region: render_fragment(region, contexts[region], oob=oob) for region in REGIONS}


def render_changed(
    contexts: dict[str, dict], previous: dict[str, dict] | None, *, oob: bool = True, shared: dict | None = None
) -> dict[str, str]:
    """Render only the fragments whose context differs from `previous` (the viewer's last render).

    A fragment is a function of its context alone (one partial, one context function; the
    language is the socket's, fixed), so an equal context means the same HTML: skipping its
    render is exact, whatever the move was. The contexts themselves cost little to build; the
    templates are what costs (`manage.py bench_table_render`).

    `shared` ((region, oob) -> [(context, html)]) holds what other viewers of the same version, in the same
    language, already rendered: a context equal to one there reuses its HTML, for the same reason.
    Partners see the same score and often the same trick, status and buttons (`SharedRenders`).
    """
    previous = previous or {}
    return {
        region: _render_shared(region, contexts[region], oob, shared)
        for region in REGIONS
        if region not in previous or previous[region] != contexts[region]
    }


def _render_shared(region: str, context: dict, oob: bool, shared: dict | None) -> str:
    if shared is None:
        return render_fragment(region, context, oob=oob)
    renders = shared.setdefault((region, oob), [])
    for seen, html in renders:
        if seen == context:
            return html
    html = render_fragment(region, context, oob=oob)
    renders.append((context, html))
    return html


class SharedRenders:
    """This process's fragments of the latest version of each match, per language: the `shared` of
    `render_changed`. Each socket of a table renders every move for its own seat; what two seats
    see alike (partners' score, often the trick, the status, the buttons of seats that wait) is
    rendered once. Keeps one version per match and at most `limit` matches, the least recent first
    out; only the event loop touches it (no lock)."""

    def __init__(self, limit: int = 1000):
        self.limit = limit
        self._tables: OrderedDict[tuple[int, str], tuple[int, dict]] = OrderedDict()

    def for_version(self, match_pk: int, language: str, version: int) -> dict:
        key = (match_pk, language)
        kept = self._tables.get(key)
        if kept is not None and kept[0] > version:
            return {}  # a socket behind the others: its renders are its own
        if kept is None or kept[0] < version:
            kept = self._tables[key] = (version, {})
            if len(self._tables) > self.limit:
                self._tables.popitem(last=False)
        self._tables.move_to_end(key)
        return kept[1]


def render_message(text: str, code: str = "") -> str:
    """The message fragment as a push (out-of-band)."""
    return render_fragment("message", message_context(text, code), oob=True)


# --- shared by the context functions ----------------------------------------------------------


def _viewer(view: TableView) -> int:
    # A spectator sees the table from seat 0's chair.
    return view["seat"] if view["seat"] is not None else 0


def _names(seats: Sequence[SeatFacts]) -> dict[int, str]:
    return {seat.number: seat.name or _("Deleted player") for seat in seats}


def _players(view: TableView, seats: Sequence[SeatFacts]) -> list[dict]:
    """Each seat as the viewer sees it: where it sits on their screen, its cards left, whether it acts now."""
    me = view["seat"]
    acting = set(view["seats_to_act"])
    side_of = {s: side for side, members in enumerate(view["sides"]) for s in members}
    names = _names(seats)
    return [
        {
            "number": seat.number,
            "name": names[seat.number],
            "avatar_url": seat.avatar_url,
            "is_bot": seat.is_bot,
            "is_me": seat.number == me,
            "is_partner": me is not None and side_of[seat.number] == view["side"] and seat.number != me,
            "side": side_of[seat.number],
            "position": p.position_of(_viewer(view), seat.number, view["seats"]),
            "cards_left": range(view["cards_left"][seat.number]),
            "acting": seat.number in acting,
            "is_dealer": seat.number == view["dealer"],
        }
        for seat in seats
    ]


def _side_label(view: TableView, names: dict[int, str], side: int) -> str:
    """A side as the viewer calls it: Us/Them with partners, You or the seat's name without; a spectator,
    who is on no side, by its players' names ("Ana & Caio")."""
    sides, my_side = view["sides"], view["side"]
    if my_side is None:
        return _joined([names[s] for s in sides[side]])
    if any(len(members) > 1 for members in sides):
        if side == my_side:
            return _("Us")
        return _("Them") if len(sides) == 2 else _joined([names[s] for s in sides[side]])
    return _("You") if side == my_side else names[sides[side][0]]


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else _("%(first)s & %(second)s") % {"first": names[0], "second": names[1]}


# Who a sentence is about, for the verb's agreement in Portuguese ("Você correu", "Vocês correram",
# "Beto correu", "Eles correram"): the viewer alone, the viewer's side of two, one named player, several.
YOU, YOU_ALL, ONE, MANY = "you", "you_all", "one", "many"


def _side_subject(view: TableView, names: dict[int, str], side: int) -> dict:
    """A side as the subject of a sentence: its words (`name`) and its grammatical `kind` (YOU, YOU_ALL,
    ONE, MANY). The viewer's own side is "you" (one or all of you); another side a name or names."""
    members = view["sides"][side]
    if side == view["side"]:
        return {"kind": YOU if len(members) == 1 else YOU_ALL, "name": ""}
    if view["side"] is not None and len(members) > 1 and len(view["sides"]) == 2:
        return {"kind": MANY, "name": _("They")}
    return {"kind": ONE if len(members) == 1 else MANY, "name": _joined([names[s] for s in members])}


def _ran_from(subject: dict, call: str) -> str:
    """ "<subject> ran from <call>", with the verb agreeing with the subject."""
    if subject["kind"] == YOU:
        return _("you ran from %(call)s") % {"call": call}
    if subject["kind"] == YOU_ALL:
        return pgettext("you, plural", "you ran from %(call)s") % {"call": call}
    if subject["kind"] == ONE:
        return _("%(name)s ran from %(call)s") % {"name": subject["name"], "call": call}
    return pgettext("several people", "%(names)s ran from %(call)s") % {"names": subject["name"], "call": call}


def _result_word(view: TableView, side: int | None) -> str:
    if side is None:
        return "tied"
    return "won" if side == view["side"] else "lost"


def _face(code: str | None, manilhas) -> dict | None:
    """A card's face, marked when it is one of the hand's `manilhas`."""
    return p.card_face(code, manilha=code in manilhas)


def _plays(view: TableView, names: dict[int, str], plays: list[dict], manilhas=()) -> list[dict]:
    """Cards played, as the viewer sees them: where each sits on their screen, its face, whose it is.
    `manilhas`: the hand's, to mark them (a card played face down or that lost its value counts for nothing)."""
    return [
        {
            "seat": play["seat"],
            "position": p.position_of(_viewer(view), play["seat"], view["seats"]),
            "face": _face(play["card"], () if play["face_down"] or play.get("lost_value") else manilhas),
            "face_down": play["face_down"],
            "name": names[play["seat"]],
            "mine": play["seat"] == view["seat"],
            # Online Mineiro's double play: the card beneath, shown only when the view shows it
            # (to its owner, or once the rules turned it up); a face-up card that lost its value.
            "double": play.get("double", False),
            "hidden_face": _face(play.get("hidden"), manilhas),
            "lost_value": play.get("lost_value", False),
        }
        for play in plays
    ]


def _tournament_result(stage: int, prize: tuple[int, int] | None, won: bool) -> dict:
    final = stage == len(Tournament.STAGES) - 1
    coins, rank_points = prize or (0, 0)
    return {
        "stage": Tournament.STAGES[stage],
        "next_stage": None if final else Tournament.STAGES[stage + 1],
        "champion": won and final,
        "prize_coins": coins,
        "prize_rank_points": rank_points,
    }


def _last_hand_summary(view: TableView, names: dict[int, str]) -> dict | None:
    """Who took the hand that just ended, how many points, and why, in words, with the small cards of
    the round that ended it."""
    last = view["last_hand"]
    if not last:
        return None
    if last["reason"] == "ran_from":
        losers = [s for s in range(len(view["score"])) if s != last["winner_side"]]
        call = p.ran_from_call(view["rules"], last["points"])
        if len(losers) == 1:
            why = _ran_from(_side_subject(view, names, losers[0]), call)
        else:
            why = pgettext("several people", "%(names)s ran from %(call)s") % {"names": _("the others"), "call": call}
    elif any(play.get("double") for r in last["rounds"] for play in r["plays"]):
        why = str(p.DOUBLE_PLAY_REASONS.get(last["reason"]) or p.HAND_REASONS.get(last["reason"], last["reason"]))
    else:
        why = str(p.HAND_REASONS.get(last["reason"], last["reason"]))
    return {
        "number": last["hand_number"],
        "winner": _side_label(view, names, last["winner_side"]) if last["winner_side"] is not None else None,
        "mine": last["winner_side"] == view["side"],
        "points": last["points"],
        "why": why,
        "cards": _plays(
            view, names, last.get("unfinished_round") or (last.get("rounds") or [{}])[-1].get("plays") or []
        ),
    }


def _tournament_url(tournament_public_id: str | None) -> str | None:
    return reverse("games:tournament", args=[tournament_public_id]) if tournament_public_id else None
