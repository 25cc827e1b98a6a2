"""Matches, their seats and event log, tournaments, and the admin-editable reward amounts.

The engine state lives in `Match.state` as the engine's own JSON; it never leaves the server.
Browsers only ever get what `games.engine.seat_view` lets a seat see.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import engine


def new_public_id() -> str:
    # URLs carry this, never the primary key: unguessable, so a match page cannot be found by counting.
    return secrets.token_urlsafe(9)


class BotLevel(models.TextChoices):
    RANDOM = "random", _("Random")
    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")
    EXPERT = "expert", _("Expert")
    CAREFUL = "careful", _("Careful")  # a named opponent (issue 32), not a step of the ladder


class Tournament(models.Model):
    """Four matches in a row against the AI; a loss ends it; the reward comes with the final."""

    # The stages in order, and the bot level each is played against: stronger bots each round,
    # the final keeps `hard` (levels as in `games.engine.bots.BOT_LEVELS`, weakest first): `expert`,
    # the search bot, is a Play-page choice only (docs/decisions.md "AI: search bot").
    STAGES = (_("Round of 16"), _("Quarter-final"), _("Semi-final"), _("Final"))
    STAGE_BOTS = ("easy", "medium", "hard", "hard")

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        WON = "won", _("Won")
        LOST = "lost", _("Lost")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments")
    rules = models.JSONField(_("rules"))
    stage = models.PositiveSmallIntegerField(_("stage"), default=0)  # index into STAGES
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLAYING)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_status_display()} · {self.stage + 1}/{len(self.STAGES)}"


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")
        # Ended early by everyone's agreement (issue 12): no points, no ranking, no statistics,
        # the stakes returned (games.match.stakes).
        ANNULLED = "annulled", _("Annulled")

    class Kind(models.TextChoices):
        SINGLE = "single", _("Single match")
        TOURNAMENT = "tournament", _("Tournament")
        ROOM = "room", _("Room match")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.SINGLE)
    # A practice match (a practice room's) counts for nothing: no rewards, statistics, achievements
    # or ranking (issue 13: "annulled and practice matches do not count").
    practice = models.BooleanField(_("practice"), default=False)
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="matches")
    tournament_stage = models.PositiveSmallIntegerField(null=True, blank=True)
    rules = models.JSONField(_("rules"))
    bot_level = models.CharField(_("bot level"), max_length=10, choices=BotLevel.choices, default=BotLevel.MEDIUM)
    move_seconds = models.PositiveSmallIntegerField(_("seconds per move"), default=99)
    # Per seat, its bot level or "" for a person: the clock and the AI need only this, so a move
    # does not have to load the seats.
    seat_bots = models.JSONField(default=list)
    # The engine's full JSON state (hands, deck order, RNG): server-side only.
    state = models.JSONField(_("engine state"))
    # The engine state the match started from (the first deal, the RNG), server-side only like `state`:
    # with each move's action (`MatchEvent.action`) the replay plays the match again through the engine
    # (games.table.replay). None for matches started before it was kept (issue 29): they replay from
    # their events (games.table.replay_legacy).
    start_state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    score = models.JSONField(_("score"), default=list)
    winner_side = models.SmallIntegerField(_("winning side"), null=True, blank=True)
    # When the sweeper must act next (an AI seat's move or a human's clock running out) and for whom.
    deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    deadline_seat = models.SmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # The last time a player's clock ran out and the table played for them (shown at the table).
    timed_out_seat = models.SmallIntegerField(null=True, blank=True)
    timed_out_version = models.PositiveIntegerField(null=True, blank=True)
    rewards_credited = models.BooleanField(_("rewards credited"), default=False)
    # Coins each person put in when the match started (a room's stake, copied here so games never
    # reads rooms); 0 for no stake. `stakes_settled` marks the pot paid out, once (games.match.stakes).
    stake_coins = models.PositiveIntegerField(_("stake per person (coins)"), default=0)
    stakes_settled = models.BooleanField(_("stakes settled"), default=False)
    # Turns in a row the table played for a person whose clock ran out; a person's own move resets it.
    # At `GAMES_ABANDON_AFTER_MISSED_TURNS` the match is abandoned (games.match.moves.play_due_seat).
    missed_turns = models.PositiveSmallIntegerField(default=0)
    # Copied from a room's options when its match starts (games never reads rooms): whoever is signed
    # in may watch (the spectator view: no hidden card), and partners may send each other signals.
    allow_spectators = models.BooleanField(_("spectators allowed"), default=False)
    partner_signals = models.BooleanField(_("partner signals"), default=False)
    # Each seat's last partner signal: {"<seat>": {"hand": n, "signal": "zap"}}; shown to the partner
    # until hand n ends (games.match.signals). Server-side: it only ever travels to the partner's seat group.
    signals = models.JSONField(default=dict, blank=True)
    # Who is at a room's table (games.match.presence; docs/decisions.md, "Rooms, part 2"). Per person's seat:
    # `away_since` {"<seat>": POSIX time} while no socket of theirs is alive; `robot_seats`, the seats a
    # robot plays now (away too long, or left: the clock treats them as AI seats); `left_seats`, the
    # seats whose person left or stayed away past the grace period (also `Seat.left_at`). On the match
    # row, like `seat_bots`, so the clock and the pushes need no other row.
    away_since = models.JSONField(default=dict)
    robot_seats = models.JSONField(default=list)
    left_seats = models.JSONField(default=list)
    # Per person's seat, the moves of that seat: [made by the person, all] ({"<seat>": [own, all]});
    # a robot's (while they were away or after they left) and the clock's (their time ran out) count
    # in "all" only. A person who made fewer than half of their seat's moves did not play the match:
    # it pays them nothing (games.selectors.absent_seats; docs/decisions.md, "Issue 28").
    own_moves = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "deadline"], name="games_match_due")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.public_id}"

    def won_by(self, seat_number: int) -> bool:
        """Whether the side of this seat won the (finished) match."""
        return engine.side_of(engine.RuleSet.from_dict(self.rules), seat_number) == self.winner_side


class Seat(models.Model):
    """One place at the table: a signed-in player, a guest (by a token kept in their session) or a bot."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    # SET_NULL: a finished match keeps a neutral "deleted player" when the person deletes their account.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    guest_token = models.CharField(max_length=32, blank=True, db_index=True)
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    display_name = models.CharField(_("name at the table"), max_length=40)
    # Where the person sat down from (a room copies its RoomSeat's address): two people at one table
    # from the same address earn no rank points (seed 002).
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    # When the person left the match (the "Leave match" button) or stayed away past the grace period:
    # a robot plays their seat to the end, and a match someone left pays nobody (seed 000).
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="games_seat_unique_number")]

    def __str__(self) -> str:
        return f"{self.number}: {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_human(self) -> bool:
        return not self.bot_level


class Spectator(models.Model):
    """One spectator's open table socket (games.match.spectators): the players see how many people watch.

    A row per socket, deleted when it closes; a socket refreshes `seen_at` on its idle check, so the
    rows of a process that died stop counting after `spectators.FRESH_FOR`."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="spectators")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="watching")
    socket_id = models.CharField(max_length=64, unique=True)  # made up by the socket as it opens
    seen_at = models.DateTimeField()

    class Meta:
        verbose_name = _("spectator")
        verbose_name_plural = _("spectators")
        indexes = [models.Index(fields=["match", "seen_at"], name="games_spectator_fresh")]

    def __str__(self) -> str:
        return f"{self.user_id} watching {self.match_id}"


class SocketPresence(models.Model):
    """One table socket of a room's match: its process refreshes `last_seen` every
    `GAMES_PRESENCE_HEARTBEAT_S` while it is open. A seat is away when none of its rows is fresh: an
    open one seen within `GAMES_PRESENCE_STALE_S`, or one closed cleanly (`closed_at`: its page closed
    or is reloading) within `GAMES_PRESENCE_RELOAD_S`. So a process that dies leaves rows that go stale
    by themselves, and no process memory decides who is away (games.match.presence)."""

    key = models.CharField(max_length=32, unique=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sockets")
    seat = models.PositiveSmallIntegerField()
    last_seen = models.DateTimeField(db_index=True)
    # Set by the consumer's disconnect: the browser closed the socket (a closed page is not coming
    # back by itself, unlike a silent socket whose network may return).
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("table socket")
        verbose_name_plural = _("table sockets")
        indexes = [models.Index(fields=["match", "seat"], name="games_socket_match_seat")]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}"


class MatchEvent(models.Model):
    """The engine's events, in order, for the history and the admin (staff only: they are not filtered per seat).

    The first engine event of each move also keeps the move's action, for the replay."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    actor = models.CharField(max_length=10, default="player")  # player | bot | clock | system
    data = models.JSONField()
    # On the first engine event of a move: the action `seat` took (`engine.Action.to_dict()`), which told
    # this event and the ones after it of the same move. Server-side only: a face-down card is named
    # here, never in `data` (the admin shows `data`, not this).
    action = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        ordering = ["match", "id"]

    def __str__(self) -> str:
        return f"v{self.version} {self.data.get('type', '?')}"


class RewardSettings(models.Model):
    """Single row, edited in the admin: what a finished match pays (the product manual's amounts by default)."""

    single_win_coins = models.PositiveIntegerField(default=15)
    single_win_rank_points = models.PositiveIntegerField(default=3)
    single_loss_coins = models.PositiveIntegerField(default=2)
    single_loss_rank_points = models.PositiveIntegerField(default=1)
    tournament_win_coins = models.PositiveIntegerField(default=150)
    tournament_win_rank_points = models.PositiveIntegerField(default=10)
    # Competitive rooms between people (seed 000, "MULTIPLAYER MODE").
    room_win_coins = models.PositiveIntegerField(default=50)
    room_win_rank_points = models.PositiveIntegerField(default=5)
    room_loss_coins = models.PositiveIntegerField(default=10)
    room_loss_rank_points = models.PositiveIntegerField(default=2)

    class Meta:
        verbose_name = _("reward settings")
        verbose_name_plural = _("reward settings")

    def __str__(self) -> str:
        return str(_("Rewards"))

    @classmethod
    def current(cls) -> "RewardSettings":
        return cls.objects.get_or_create(pk=1)[0]


class DealtCards(models.Model):
    """The cards one seat was dealt in one hand, and which of them it played face down: server-side
    only, read by the replay for that seat's own player (nobody else's cards ever leave the server)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="dealt_cards")
    hand_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    cards = models.JSONField(default=list)
    face_down = models.JSONField(default=list)

    class Meta:
        verbose_name = _("dealt cards")
        verbose_name_plural = _("dealt cards")
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_number", "seat"], name="games_dealt_once_per_hand_seat")
        ]

    def __str__(self) -> str:
        return f"{self.match_id} hand {self.hand_number} seat {self.seat}"


class MatchAnalysis(models.Model):
    """The engine's review of one seat's decisions in a finished match (issue 34), asked for by the person
    who played the seat and computed once: off the table's event loop, in the analysis worker
    (`games.table.analysing`), decision by decision so the page shows its progress. `decisions` holds,
    per decision, the move, the choice, every legal action's estimate (`engine.analysis.Decision`) and the
    words the page needs; it names only cards that seat held or saw."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    done = models.PositiveIntegerField(default=0)  # decisions estimated so far
    total = models.PositiveIntegerField(default=0)  # decisions to estimate
    worlds = models.PositiveIntegerField(default=0)  # sampled worlds per decision
    decisions = models.JSONField(default=list)
    waiting = models.BooleanField(default=False)  # giving way to busy tables (games.match.pace)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # a running row not touched for long was orphaned
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="games_one_analysis_per_seat")]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.status}"
