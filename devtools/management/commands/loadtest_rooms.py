"""`manage.py loadtest_rooms`: simulated people fill rooms of four (two teams) and play each other over real sockets.

The sibling of `loadtest_table` (players against the AI), with its sockets, floor, server CPU and
clean-up. Here every table is a room: four accounts, the first creates a practice room (it pays no
rewards) and the other three join it through `rooms.services`, which starts the match; every
player then connects to /ws/match/<id>/ like a browser and, when its buttons offer a move, thinks
`--think-ms` and sends one. With two URLs the seats of each table alternate between the servers
(two on each process).

The figure the issue asks for is **action → all four seats updated**: from the moment the acting
seat sends its move to the moment the last of the table's four sockets has received a frame with a
newer version (the acting seat's own echo is printed too, as `latency`). Frames/s counts every
frame every socket received. When a match ends the same four say yes to "Play again" on the server and play on.

Clean-up deletes the run's rooms, then its matches, sessions and accounts (`lr-<run>-<n>`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management.base import CommandError
from django.urls import reverse

from devtools.loadtest import frame_version
from devtools.management.commands import loadtest_table
from devtools.management.commands.loadtest_table import ACTION_TIMEOUT_S, MAX_PLAYERS, Fleet, LoadRun, Player
from games import engine
from games.models import Match
from rooms import services
from rooms.models import PlayAgain, Room
from shop import money, wallet

SEATS = 4
USER_PREFIX = "lr-"
# Enough blue coins for every room a run's accounts open (one per match, at the default price).
BLUE_COINS = 1000
# How long the four's "play again" may take before the table opens a new room itself (counted as an error).
PLAY_AGAIN_WAIT_S = 10


@dataclass
class Table:
    """Four players in one room's match, and the moves whose echo not every seat has seen yet."""

    players: list[Player]
    public_id: str = ""
    match_pk: int = 0
    # (match public id, version acted on) -> (when it was sent, positions of the seats that saw a newer version)
    pending: dict = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connected: set = field(default_factory=set)  # positions whose socket has had its first snapshot
    all_seated: asyncio.Event = field(default_factory=asyncio.Event)


class RoomFleet(Fleet):
    prefix = USER_PREFIX

    def __init__(self, *, run_id: str, rules: engine.RuleSet, seed: int | None):
        super().__init__(run_id=run_id, rules=rules, level="", seed=seed)
        self.tables: list[Table] = []

    def create_players(self, endpoints: list[tuple[str, str]]) -> list[Player]:
        players = [self.new_player(i, ws_base, origin) for i, (ws_base, origin) in enumerate(endpoints)]
        for player in players:
            have = wallet.balance(player.user, currency=wallet.BLUE_COINS)
            wallet.change_balance(
                player.user,
                currency=wallet.BLUE_COINS,
                amount=BLUE_COINS - have,
                reason=money.Reason.ADMIN_ADJUSTMENT,
            )
        self.tables = [Table(players[i : i + SEATS]) for i in range(0, len(players), SEATS)]
        for table in self.tables:
            self.new_room(table)
            for player in table.players:
                player.match_public_id, player.match_pk = table.public_id, table.match_pk
        return players

    def new_room(self, table: Table) -> None:
        """The table's first player opens a practice room, the other three join: the last seat starts the match."""
        chief, *others = table.players
        options = services.RoomOptions(rules=self.rules, mode=Room.Mode.PRACTICE)
        room = services.create_room(chief.user, options)
        for player in others:
            services.join_room(player.user, room.code)
        room.refresh_from_db()
        match = cast(Match, room.match)  # the last seat started it
        self.moved_to(table, match.public_id, match.pk)

    def say_yes(self, player: Player, finished: str) -> bool:
        """POST this player's yes to "Play again" (with a CSRF token of our own, as a browser's cookie and
        header) and load the page it leads to, as a browser does. False if the server could not be reached."""
        url = f"{player.origin}{reverse('rooms:again_accept', kwargs={'public_id': finished})}"
        token = secrets.token_hex(16)
        headers = {"Cookie": f"{player.cookie}; {settings.CSRF_COOKIE_NAME}={token}", "X-CSRFToken": token}
        try:
            urllib.request.urlopen(urllib.request.Request(url, b"", headers, method="POST"), timeout=ACTION_TIMEOUT_S)
        except (OSError, urllib.error.URLError):
            return False
        return True

    def started_after(self, finished: str) -> tuple[str, int] | None:
        """The match "Play again" started after `finished`: (public id, pk), or None (not yet)."""
        return (
            PlayAgain.objects.filter(room__match__public_id=finished, new_room__match__isnull=False)
            .values_list("new_room__match__public_id", "new_room__match_id")
            .first()
        )

    def moved_to(self, table: Table, public_id: str, match_pk: int) -> None:
        table.public_id, table.match_pk = public_id, match_pk
        table.pending.clear()
        table.connected.clear()  # the new match starts when all four have its snapshot too
        table.all_seated.clear()

    def cleanup(self) -> tuple[int, int]:
        Room.objects.filter(room_seats__user__username__startswith=f"{self.prefix}{self.run_id}-").delete()
        return super().cleanup()


class RoomRun(LoadRun):
    fleet: RoomFleet
    times_the_ai = False  # no AI at these tables: the turn waits are the other people's thinking

    def __init__(self, players: list[Player], fleet: RoomFleet, *, ramp_s: float, **kwargs):
        super().__init__(players, fleet, one_match=False, **kwargs)
        self.ramp_s = ramp_s
        self.seat_of = {p.index: (t, n) for t in fleet.tables for n, p in enumerate(t.players)}
        self.counted: set[str] = set()
        self.last_move: dict[int, tuple] = {}  # player index -> its last move's key in `Table.pending`

    # stale: the partner answered the same question first; match_over: the partner made the last move
    expected_refusals = frozenset({"stale", "match_over"})

    async def arrive(self, player: Player) -> None:
        """The tables sit down one after another over `--ramp-seconds`, not in one burst of sockets."""
        table, _ = self.seat_of[player.index]
        tables = len(self.fleet.tables)
        await asyncio.sleep(self.ramp_s * self.fleet.tables.index(table) / tables)

    async def seated(self, player: Player) -> None:
        """Nobody at a table moves before all four are at their sockets (as a room's match starts with
        everyone in it): otherwise a seat still connecting would count as a slow update."""
        table, position = self.seat_of[player.index]
        table.connected.add(position)
        if len(table.connected) == len(table.players):
            table.all_seated.set()
        try:
            await asyncio.wait_for(table.all_seated.wait(), max(self.remaining(), 0.01))
        except TimeoutError:
            pass

    def refused_as_expected(self, player: Player) -> None:
        super().refused_as_expected(player)
        table, _ = self.seat_of[player.index]
        table.pending.pop(self.last_move.get(player.index), None)  # the partner's answer was the move

    def forget_late(self, table: Table, now: float) -> None:
        for key, (when, _seen) in list(table.pending.items()):
            if now - when > ACTION_TIMEOUT_S:  # a seat did not see this move in time: counted, then forgotten
                self.count("seat_not_updated")
                del table.pending[key]

    def acting(self, player: Player, acted_on: int, sent: float) -> None:
        table, _ = self.seat_of[player.index]
        self.forget_late(table, sent)
        key = self.last_move[player.index] = (player.match_public_id, acted_on)
        table.pending[key] = (sent, set())

    def saw(self, player: Player, regions: list) -> None:
        super().saw(player, regions)
        version = frame_version(regions)
        if version is None:
            return
        table, position = self.seat_of[player.index]
        now = time.perf_counter()
        self.forget_late(table, now)
        for key, (sent, seen) in list(table.pending.items()):
            public_id, acted_on = key
            if public_id != player.match_public_id or version <= acted_on:
                continue
            seen.add(position)
            if len(seen) == len(table.players):
                self.report.all_seats_latencies.append(now - sent)
                del table.pending[key]

    def match_over(self, player: Player) -> None:
        if player.match_public_id not in self.counted:  # once per table, not once per seat
            self.counted.add(player.match_public_id)
            self.report.matches_finished += 1

    async def next_match(self, player: Player) -> None:
        """Each of the four says yes to "Play again with the same people" on the server, as people do; the
        last yes starts the next match there. Opening rooms from this process instead wrote to the
        server's database beside it: on SQLite that held the file's lock while the server's writer,
        every table's moves, waited for it."""
        table, _ = self.seat_of[player.index]
        finished = player.match_public_id
        started = None
        if await asyncio.to_thread(self.fleet.say_yes, player, finished):
            # Waited here, not in a thread: a thread per waiting player would exhaust asyncio's small pool
            # before the last of the four could post its yes.
            give_up_at = time.monotonic() + PLAY_AGAIN_WAIT_S
            while table.public_id == finished and time.monotonic() < give_up_at and not self.time_up():
                started = await sync_to_async(self.fleet.started_after)(finished)
                if started is not None:
                    break
                await asyncio.sleep(0.1)
        if started is None and self.time_up():
            # The run ended while the four were saying yes: a seat whose match ended after the end says
            # no yes at all (`play` stops it), so the table could not start again. Not the server's fault.
            return
        async with table.lock:
            if table.public_id == finished:  # the first of the four to get here moves the table
                if started is None:
                    self.count("play_again_failed")
                    await sync_to_async(self.fleet.new_room)(table)
                else:
                    self.fleet.moved_to(table, *started)
        player.match_public_id, player.match_pk = table.public_id, table.match_pk


class Command(loadtest_table.Command):
    help = (
        "Load-test rooms: simulated people fill rooms of four (two teams) and play each other over real "
        "WebSockets against running daphne(s) on this machine (same DATABASE_URL). Prints action → all four "
        "seats updated, frames/s and errors, beside the floor measured in the same run."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=50, help="rooms of four people (default 50: 200 sockets)")
        parser.add_argument("--seconds", type=float, default=30, help="how long they play (default 30)")
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="the running daphne; a comma-separated list splits each table's seats round-robin",
        )
        parser.add_argument("--variant", choices=engine.rules.VARIANTS, default="paulista")
        parser.add_argument("--think-ms", type=int, default=1000, help="pause before each move (default 1000)")
        parser.add_argument(
            "--ramp-seconds",
            type=float,
            default=10,
            help="the tables connect one after another over this long, within --seconds (default 10)",
        )
        parser.add_argument("--seed", type=int, default=None, help="fixes the players' choices (not the deals)")
        parser.add_argument("--keep", action="store_true", help="keep the run's rooms, accounts and matches")
        parser.add_argument(
            "--cleanup", action="store_true", help="only delete what earlier runs left behind, then exit"
        )
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
        loadtest_table.add_ramp_arguments(parser, unit="tables of four")
        loadtest_table.add_analysis_argument(parser)
        parser.add_argument(
            "--floor-seconds",
            type=float,
            default=10,
            help="first measure the floor (a trivial group round trip, same sockets in groups of four, same "
            "server) this long; 0 skips it. Needs the server started with BENCH_ROUTES=1 (default 10)",
        )

    def handle(self, *args, **options):
        if not options["cleanup"] and not 1 <= options["tables"] <= MAX_PLAYERS // SEATS:
            raise CommandError(f"--tables must be between 1 and {MAX_PLAYERS // SEATS}")
        options["players"] = options["tables"] * SEATS
        super().handle(*args, **options)

    def players_for(self, load: int) -> int:
        return load * SEATS

    def remove_earlier_runs(self) -> tuple[int, int]:
        Room.objects.filter(room_seats__user__username__startswith=USER_PREFIX).delete()
        return loadtest_table.remove_load_accounts(USER_PREFIX)

    def make_fleet(self, options) -> RoomFleet:
        rules = engine.RuleSet(variant=options["variant"], seats=SEATS, partnership=True)
        return RoomFleet(run_id=secrets.token_hex(3), rules=rules, seed=options["seed"])

    def make_run(self, players, fleet, options, report) -> RoomRun:
        report.people_only = True
        return RoomRun(
            players,
            fleet,
            seconds=options["seconds"],
            think_ms=options["think_ms"],
            ramp_s=options["ramp_seconds"],
            report=report,
        )
