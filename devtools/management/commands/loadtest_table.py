"""`manage.py loadtest_table`: N simulated players, each in its own match against the AI, over real sockets.

Needs a running daphne on this machine (`make run` in another terminal) using the same
DATABASE_URL: the players' accounts, sessions and matches are written straight into that database
with the ORM, then every player connects to /ws/match/<id>/ like a browser (session cookie + Origin)
and plays whatever its buttons offer until the time is up. Latency is measured from sending an
action to the frame whose `#status` carries a newer `data-version`.

Clean-up: every account is named `lt-<run>-<n>` with an `@loadtest.invalid` email; at the end the
run deletes its matches (seats and events go with them), sessions and accounts, the same way an
account deletion does (ledger lines stay, anonymised, as the ledger is append-only). `--keep`
leaves them for inspection; `--cleanup` removes what an interrupted run left behind.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import random
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import websockets
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, transaction
from websockets.exceptions import ConnectionClosed

from accounts.signals import account_deleting
from devtools import analysis_loop
from devtools.loadtest import (
    Report,
    Stage,
    TableView,
    assign_urls,
    format_ramp,
    format_report,
    frame_error,
    frame_version,
    loopback_endpoint,
    ramp_loads,
)
from devtools.matches import long_match
from games import engine
from games.match.clock import ai_delay
from games.match.starting import create_match, seat_plans_against_ai
from games.models import BotLevel, Match

USER_PREFIX = "lt-"
EMAIL_DOMAIN = "loadtest.invalid"
MAX_PLAYERS = 1000
MAX_SECONDS = 600
# No update this long after an action: counted as a timeout, and the player reconnects.
ACTION_TIMEOUT_S = 5.0
# Waiting for the AI (0.5–1.5 s by design) this long without any frame: the sweeper has stalled.
IDLE_TIMEOUT_S = 10.0
CLOSE_NOT_YOURS = 4403
CLOSE_NOT_FOUND = 4404
# The floor's sockets sit in groups of this many, as the sockets of a full table do.
FLOOR_GROUP_SIZE = 4
FLOOR_PATH = "/ws/bench/floor/{group}/"

if TYPE_CHECKING:
    from accounts.models import User


@dataclass
class Player:
    index: int
    user: User
    cookie: str
    ws_base: str
    origin: str
    rng: random.Random
    match_public_id: str = ""
    match_pk: int = 0


class Fleet:
    """The run's accounts, sessions and matches in the server's database, and their removal."""

    prefix = USER_PREFIX  # the run's accounts are named <prefix><run>-<n>

    def __init__(self, *, run_id: str, rules: engine.RuleSet, level: str, seed: int | None):
        self.run_id = run_id
        self.rules = rules
        self.level = level
        self.seed = seed
        self.session_keys: list[str] = []

    def create_players(self, endpoints: list[tuple[str, str]]) -> list[Player]:
        players = []
        for i, (ws_base, origin) in enumerate(endpoints):
            player = self.new_player(i, ws_base, origin)
            self.new_match(player)
            players.append(player)
        return players

    def new_player(self, i: int, ws_base: str, origin: str) -> Player:
        """An account and a signed-in session for player `i` (no match yet)."""
        name = f"{self.prefix}{self.run_id}-{i}"
        user = get_user_model().objects.create_user(username=name, email=f"{name}@{EMAIL_DOMAIN}", password=None)
        # What django.contrib.auth.login() stores, without a request.
        session = importlib.import_module(settings.SESSION_ENGINE).SessionStore()
        session[SESSION_KEY] = user._meta.pk.value_to_string(user)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        self.session_keys.append(session.session_key)
        rng = random.Random(f"{self.seed}:{i}") if self.seed is not None else random.Random()
        return Player(i, user, f"{settings.SESSION_COOKIE_NAME}={session.session_key}", ws_base, origin, rng)

    def new_match(self, player: Player) -> None:
        plans = seat_plans_against_ai(self.rules, self.level, user=player.user)
        seed = player.rng.getrandbits(63) if self.seed is not None else None
        match = create_match(rules=self.rules, seats=plans, bot_level=self.level, seed=seed)
        player.match_public_id = match.public_id
        player.match_pk = match.pk

    def analysed_match(self) -> Match:
        """A long finished match of four of the run's accounts, for the servers' analysis loop (--analyses)."""
        people = []
        for n in range(4):
            name = f"{self.prefix}{self.run_id}-analysed-{n}"
            people.append(
                get_user_model().objects.create_user(username=name, email=f"{name}@{EMAIL_DOMAIN}", password=None)
            )
        return long_match(self.seed or 1, people)

    def cleanup(self) -> tuple[int, int]:
        return remove_load_accounts(f"{self.prefix}{self.run_id}-", self.session_keys)


def remove_load_accounts(prefix: str, session_keys: list[str] | None = None) -> tuple[int, int]:
    """Delete the load-test accounts under `prefix`, their matches and sessions; (accounts, matches) removed."""
    User = get_user_model()
    users = list(User.objects.filter(username__startswith=prefix, email__endswith=f"@{EMAIL_DOMAIN}"))
    if not users:
        return 0, 0
    ids = {str(u.pk) for u in users}
    match_ids = list(Match.objects.filter(seats__user__in=users).values_list("pk", flat=True).distinct())
    # First stop the server's sweeper from moving for the AI (it only takes active matches, under the
    # row lock), so no event is written into a match while it is being deleted.
    with transaction.atomic():
        list(Match.objects.select_for_update().filter(pk__in=match_ids).values_list("pk", flat=True))
        Match.objects.filter(pk__in=match_ids, status=Match.Status.ACTIVE).update(
            status=Match.Status.ABANDONED, deadline=None, deadline_seat=None
        )
    with transaction.atomic():
        Match.objects.filter(pk__in=match_ids).delete()
        if session_keys is not None:
            Session.objects.filter(session_key__in=session_keys).delete()
        else:
            stale = [s.session_key for s in Session.objects.iterator() if s.get_decoded().get(SESSION_KEY) in ids]
            Session.objects.filter(session_key__in=stale).delete()
        for user in users:
            # The account-deletion hook: the shop anonymises ledger lines and drops wallet and inventory.
            account_deleting.send(sender=User, user=user)
            user.delete()
    return len(users), len(match_ids)


class LoadRun:
    """The asynchronous part: every player's socket, moves and timings, until the time is up."""

    def __init__(
        self, players: list[Player], fleet: Fleet, *, seconds: float, think_ms: int, one_match: bool, report: Report
    ):
        self.players = players
        self.fleet = fleet
        self.seconds = seconds
        self.think_s = think_ms / 1000
        self.one_match = one_match
        self.report = report
        self.end_at = 0.0

    # Hooks for a sibling command (`rooms`' loadtest_rooms: people playing each other).
    times_the_ai = True  # each turn wait is timed against the AI's designed delays

    def saw(self, player: Player, regions: list) -> None:
        """Every frame any player's socket receives, once applied to its view."""
        self.report.frames_received += 1

    def acting(self, player: Player, acted_on: int, sent: float) -> None:
        """A player is about to send an action made on version `acted_on`."""

    # Refusals the table gives by design (people answering one question at once), not errors.
    expected_refusals: frozenset = frozenset()

    def refused_as_expected(self, player: Player) -> None:
        self.report.raced += 1

    async def arrive(self, player: Player) -> None:
        """Before the player's first connection (all at once here: a burst)."""

    async def seated(self, player: Player) -> None:
        """After each connection's snapshot, before the player's first move on it."""

    def match_over(self, player: Player) -> None:
        self.report.matches_finished += 1

    async def next_match(self, player: Player) -> None:
        await sync_to_async(self.fleet.new_match)(player)

    def remaining(self) -> float:
        return self.end_at - time.perf_counter()

    def time_up(self) -> bool:
        return self.remaining() <= 0

    async def run(self) -> Report:
        started = time.perf_counter()
        self.end_at = started + self.seconds
        try:
            await asyncio.gather(*(self.play(p) for p in self.players))
        finally:
            self.report.elapsed = time.perf_counter() - started
            # The new-match thread's connection must not outlive the run (a test DB could not be dropped).
            await sync_to_async(connections.close_all)()
        return self.report

    async def play(self, player: Player) -> None:
        await self.arrive(player)
        while not self.time_up():
            outcome = await self.one_connection(player)
            if outcome == "stop":
                return
            if outcome == "finished":
                self.match_over(player)
                if self.one_match or self.time_up():
                    return
                await self.next_match(player)
            elif outcome == "retry" and not self.time_up():
                await asyncio.sleep(min(0.5, max(self.remaining(), 0)))

    def count(self, kind: str) -> None:
        self.report.errors[kind] += 1

    async def one_connection(self, player: Player) -> str:
        """Play one match over one socket: "finished", "reconnect" (after an error), "retry", "stop" or "time"."""
        url = f"{player.ws_base}/ws/match/{player.match_public_id}/"
        opened = time.perf_counter()
        try:
            ws = await websockets.connect(
                url,
                origin=player.origin,  # type: ignore[arg-type]  # websockets' Origin: a NewType of str
                additional_headers={"Cookie": player.cookie},
                open_timeout=ACTION_TIMEOUT_S,
                max_size=2**20,
                ping_interval=None,
                close_timeout=2,
            )
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
            self.count("connect_failed")
            return "retry"
        try:
            return await self.play_match(player, ws, opened)
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == CLOSE_NOT_YOURS:
                self.count("not_your_match")
                return "stop"
            self.count("closed")
            return "reconnect"
        finally:
            await ws.close()

    async def play_match(self, player: Player, ws, opened: float) -> str:
        view = TableView()
        try:
            snapshot = await asyncio.wait_for(ws.recv(), ACTION_TIMEOUT_S)
        except TimeoutError:
            self.count("timeout")
            return "reconnect"
        regions = view.apply(snapshot)
        self.saw(player, regions)
        error = frame_error(regions)
        if error:
            self.count(error)
            return "stop" if error == "not_your_match" else "reconnect"
        self.report.connects.append(time.perf_counter() - opened)
        await self.seated(player)
        waiting_since: float | None = None
        designed = 0.0  # the AI's designed delays (games.match.clock.ai_delay) of the moves waited for
        while True:
            if view.finished:
                return "finished"
            if self.time_up():
                return "time"
            actions = view.legal_actions()
            if not actions:
                # The AI's turn (or the hand is being scored): wait for the next push.
                waiting_since = waiting_since or time.perf_counter()
                version_before = view.version
                try:
                    frame = await asyncio.wait_for(ws.recv(), min(IDLE_TIMEOUT_S, self.remaining()))
                except TimeoutError:
                    if self.time_up():
                        return "time"
                    self.count("stalled")
                    return "reconnect"
                regions = self.read(player, view, frame)
                version = frame_version(regions)
                timed = self.times_the_ai and version_before is not None and version is not None
                if timed and version_before is not None and version is not None and version > version_before:
                    # Each AI move waited for was due its designed delay after the version before it.
                    designed += sum(
                        ai_delay(player.match_pk, v).total_seconds() for v in range(version_before, version)
                    )
                continue
            if waiting_since is not None:
                if self.times_the_ai:
                    waited = time.perf_counter() - waiting_since
                    self.report.turn_waits.append(waited)
                    self.report.turn_wait_excess.append(waited - designed)
                waiting_since, designed = None, 0.0
            if self.think_s:
                await self.think(player, ws, view)
                if self.time_up():
                    return "time"
                # Someone else may have acted meanwhile (a partner answering the same question).
                actions = view.legal_actions()
                if not actions:
                    continue
            action = player.rng.choice(actions)
            acted_on = action.get("v")
            if type(acted_on) is not int:
                acted_on = view.version or 0
            sent = time.perf_counter()
            self.acting(player, acted_on, sent)
            await ws.send(json.dumps(action))
            self.report.actions_sent += 1
            if not await self.await_update(player, ws, view, acted_on, sent):
                return "reconnect"

    async def think(self, player: Player, ws, view: TableView) -> None:
        """Pause `--think-ms` before a move, reading (and timing) the frames that arrive meanwhile."""
        until = time.perf_counter() + self.think_s
        while (left := until - time.perf_counter()) > 0:
            try:
                frame = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                return
            self.read(player, view, frame)

    def read(self, player: Player, view: TableView, frame: str) -> list:
        """Apply a frame that is not the answer to a move of this player's; count an error in it."""
        regions = view.apply(frame)
        self.saw(player, regions)
        error = frame_error(regions)
        if error in self.expected_refusals:
            self.refused_as_expected(player)
        elif error:
            self.count(error)
        return regions

    async def await_update(self, player: Player, ws, view: TableView, acted_on: int, sent: float) -> bool:
        """Wait for the frame that shows a version after `acted_on`; False after an error or a timeout."""
        while True:
            left = sent + ACTION_TIMEOUT_S - time.perf_counter()
            try:
                if left <= 0:
                    raise TimeoutError
                frame = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                self.count("timeout")
                return False
            regions = view.apply(frame)
            self.saw(player, regions)
            error = frame_error(regions)
            if error in self.expected_refusals:
                self.refused_as_expected(player)
                return True  # the refusal's snapshot follows on this socket
            if error:
                # A refused move: count it and start again from a fresh snapshot.
                self.count(error)
                return False
            version = frame_version(regions)
            if version is not None and version > acted_on:
                self.report.latencies.append(time.perf_counter() - sent)
                return True


class FloorRun:
    """The floor, measured on the same server(s) in the same run: each player's socket sends a message
    through a trivial Channels group (devtools/floor.py) at the players' pace, and times its echo."""

    def __init__(self, endpoints: list[tuple[str, str]], *, seconds: float, think_ms: int, report: Report):
        self.endpoints = endpoints
        self.seconds = seconds
        self.think_s = think_ms / 1000
        self.report = report
        self.unavailable = False

    async def run(self) -> None:
        end_at = time.perf_counter() + self.seconds
        await asyncio.gather(*(self.one_socket(i, ws, origin, end_at) for i, (ws, origin) in enumerate(self.endpoints)))
        if self.unavailable and not self.report.floor_latencies:
            self.report.floor_note = "the server's bench route is off: start it with BENCH_ROUTES=1"

    async def one_socket(self, index: int, ws_base: str, origin: str, end_at: float) -> None:
        url = ws_base + FLOOR_PATH.format(group=index // FLOOR_GROUP_SIZE)
        try:
            async with websockets.connect(url, origin=origin, open_timeout=ACTION_TIMEOUT_S, ping_interval=None) as ws:  # type: ignore[arg-type]
                # Each socket starts at its own moment within one think time, as people's moves are
                # spread in time: all of them sending in the same millisecond, every second, measured
                # a burst the server takes to drain, not a push (p95 117-315 ms on an idle server).
                await asyncio.sleep(random.Random(index).uniform(0, self.think_s))
                sent = 0
                while time.perf_counter() < end_at:
                    if self.think_s:
                        await asyncio.sleep(self.think_s)
                    sent += 1
                    token = f"{index}:{sent}"
                    started = time.perf_counter()
                    await ws.send(json.dumps({"id": token}))
                    while True:  # the group's other members' echoes arrive too: wait for ours
                        frame = json.loads(await asyncio.wait_for(ws.recv(), ACTION_TIMEOUT_S))
                        if frame.get("id") == token:
                            self.report.floor_latencies.append(time.perf_counter() - started)
                            break
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == CLOSE_NOT_FOUND:
                self.unavailable = True
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
            self.report.errors["floor_failed"] += 1


async def ask_servers(urls: list[str], message: dict, timeout_s: float = ACTION_TIMEOUT_S) -> list[dict] | None:
    """Each server's answer to a bench message (devtools/floor.py), in the order of `urls`; None if the bench
    route is off or a server does not answer."""
    answers = []
    for url in urls:
        ws_base, origin = loopback_endpoint(url)
        try:
            async with websockets.connect(
                ws_base + FLOOR_PATH.format(group="0"),
                origin=origin,  # type: ignore[arg-type]  # websockets' Origin: a NewType of str
                open_timeout=ACTION_TIMEOUT_S,
            ) as ws:
                await ws.send(json.dumps(message))
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), timeout_s)))
        except (ConnectionClosed, TimeoutError, OSError, ValueError, websockets.exceptions.WebSocketException):
            return None
    return answers


async def server_cpu_seconds(urls: list[str]) -> dict[int, float] | None:
    """Each server process's CPU seconds so far (pid -> seconds), asked over the bench route; None if it is off."""
    answers = await ask_servers(urls, {"cpu": 1})
    return None if answers is None else {answer["pid"]: answer["cpu"] for answer in answers}


def add_analysis_argument(parser) -> None:
    parser.add_argument(
        "--analyses",
        action="store_true",
        help="beside the tables, every server analyses a finished match in a loop, with its own analysis code "
        "(issue 34; the report says how many decisions it estimated). Needs BENCH_ROUTES=1",
    )


def add_ramp_arguments(parser, *, unit: str) -> None:
    parser.add_argument(
        "--ramp",
        default="",
        help=f"find the saturation point: a whole run at each load given ({unit}, increasing, e.g. 10,25,50), "
        "then the action rate at which p95 crosses --ramp-bound-ms and the players per core it means",
    )
    parser.add_argument("--ramp-bound-ms", type=float, default=100, help="the ramp's p95 bound (default 100)")


class Command(BaseCommand):
    help = (
        "Load-test the live table: N players, each in its own match against the AI, over real WebSockets "
        "against a running daphne on this machine (same DATABASE_URL). Prints action→update latency."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=100, help="simulated players (default 100)")
        parser.add_argument("--seconds", type=float, default=30, help="how long they play (default 30)")
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="the running daphne; a comma-separated list splits the players round-robin",
        )
        parser.add_argument("--seats", type=int, choices=(2, 4), default=2)
        parser.add_argument("--level", choices=BotLevel.values, default=BotLevel.EASY)
        parser.add_argument("--variant", choices=engine.rules.VARIANTS, default="paulista")
        parser.add_argument("--think-ms", type=int, default=0, help="pause before each move (default 0)")
        parser.add_argument("--seed", type=int, default=None, help="fixes the deals and the players' choices")
        parser.add_argument(
            "--one-match", action="store_true", help="a player stops after its match ends instead of starting a new one"
        )
        parser.add_argument("--keep", action="store_true", help="keep the run's accounts and matches")
        parser.add_argument(
            "--cleanup",
            action="store_true",
            help="only delete the accounts and matches left by earlier runs, then exit",
        )
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
        add_ramp_arguments(parser, unit="players")
        add_analysis_argument(parser)
        parser.add_argument(
            "--floor-seconds",
            type=float,
            default=10,
            help="first measure the floor (a trivial group round trip, same sockets, same server) this long; "
            "0 skips it. Needs the server started with BENCH_ROUTES=1 (default 10)",
        )

    def start_analyses(self, fleet: Fleet, urls: list[str], report: Report) -> None:
        match = fleet.analysed_match()
        answers = asyncio.run(ask_servers(urls, {"analyse": match.pk}))
        if answers is None or not all(a.get("analysing") for a in answers):
            report.analysis_note = "a server did not start its analysis loop (BENCH_ROUTES=1?)"

    def stop_analyses(self, urls: list[str], report: Report) -> None:
        # Answered once the analysis under way has ended: the tables are quiet by now, so it ends quickly.
        answers = asyncio.run(ask_servers(urls, {"analysed": 1}, timeout_s=analysis_loop.STOP_TIMEOUT_S))
        if answers is None:
            report.analysis_note = report.analysis_note or "a server did not answer for its analysis loop"
            return
        report.analysis_decisions = sum(a["decisions"] for a in answers)
        report.analysis_note = "; ".join(a["failed"] for a in answers if a["failed"])

    # Overridden by `rooms`' loadtest_rooms (people playing each other instead of the AI).
    def remove_earlier_runs(self) -> tuple[int, int]:
        return remove_load_accounts(USER_PREFIX)

    def make_fleet(self, options) -> Fleet:
        rules = engine.RuleSet(variant=options["variant"], seats=options["seats"])
        return Fleet(run_id=secrets.token_hex(3), rules=rules, level=options["level"], seed=options["seed"])

    def make_run(self, players: list[Player], fleet: Fleet, options, report: Report) -> LoadRun:
        return LoadRun(
            players,
            fleet,
            seconds=options["seconds"],
            think_ms=options["think_ms"],
            one_match=options["one_match"],
            report=report,
        )

    def players_for(self, load: int) -> int:
        """The sockets of a `--ramp` stage: its load is players here, tables of four in `loadtest_rooms`."""
        return load

    def handle(self, *args, **options):
        if options["cleanup"]:
            users, matches = self.remove_earlier_runs()
            self.stdout.write(f"removed {users} load-test accounts and {matches} matches")
            return
        players, seconds, think_ms = options["players"], options["seconds"], options["think_ms"]
        try:
            loads = ramp_loads(options["ramp"]) if options["ramp"] else []
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if not 1 <= players <= MAX_PLAYERS:
            raise CommandError(f"--players must be between 1 and {MAX_PLAYERS}")
        if loads and self.players_for(loads[-1]) > MAX_PLAYERS:
            raise CommandError(f"--ramp's last stage has more than {MAX_PLAYERS} sockets")
        if not 0 < seconds <= MAX_SECONDS:
            raise CommandError(f"--seconds must be more than 0 and at most {MAX_SECONDS}")
        if not 0 <= think_ms <= 60_000:
            raise CommandError("--think-ms must be between 0 and 60000")
        if not 0 <= options["floor_seconds"] <= MAX_SECONDS:
            raise CommandError(f"--floor-seconds must be between 0 and {MAX_SECONDS}")
        urls = [u.strip() for u in options["url"].split(",") if u.strip()]
        if not urls:
            raise CommandError("--url needs at least one server")
        try:
            for url in urls:
                loopback_endpoint(url)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if options["ramp_bound_ms"] <= 0:
            raise CommandError("--ramp-bound-ms must be more than 0")
        if not loads:
            report = self.measure(options, players, urls)
            self.stdout.write(json.dumps(report.as_dict()) if options["json"] else format_report(report))
            return
        # The ramp: a whole run per stage, the floor measured in each, the stages one after the other.
        stages = []
        for load in loads:
            report = self.measure(options, self.players_for(load), urls)
            stages.append(Stage.of(load, report))
            if options["json"]:
                self.stdout.write(json.dumps({"load": load, **report.as_dict()}))
            else:
                self.stdout.write(f"-- stage: {load}\n{format_report(report)}")
        if not options["json"]:
            self.stdout.write(format_ramp(stages, bound_s=options["ramp_bound_ms"] / 1000, processes=len(urls)))

    def measure(self, options, players: int, urls: list[str]) -> Report:
        """One run: `players` sockets play for --seconds beside the floor, then what it left is removed."""
        endpoints = [loopback_endpoint(u) for u in assign_urls(players, urls)]
        fleet = self.make_fleet(options)
        report = Report(players=players, seconds=options["seconds"], elapsed=0.0, urls=urls)
        load_at_start = os.getloadavg()[0]
        try:
            created = fleet.create_players(endpoints)
            if options["floor_seconds"]:
                floor = FloorRun(
                    endpoints, seconds=options["floor_seconds"], think_ms=options["think_ms"], report=report
                )
                asyncio.run(floor.run())
            else:
                report.floor_note = "--floor-seconds 0"
            run = self.make_run(created, fleet, options, report)
            if options.get("analyses"):
                self.start_analyses(fleet, urls, report)
            cpu_before = asyncio.run(server_cpu_seconds(urls))
            asyncio.run(run.run())
            cpu_after = asyncio.run(server_cpu_seconds(urls))
            if options.get("analyses"):
                self.stop_analyses(urls, report)
            if cpu_before and cpu_after and cpu_before.keys() == cpu_after.keys():
                report.server_cpu_s = sum(cpu_after[pid] - cpu_before[pid] for pid in cpu_before)
            report.load_average = (load_at_start, os.getloadavg()[0])
        finally:
            if not options["keep"]:
                users, matches = fleet.cleanup()
                if not options["json"]:
                    self.stdout.write(f"cleaned up         {users} accounts, {matches} matches")
        return report
