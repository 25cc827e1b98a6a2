"""Rooms and their seats, and the staff-editable price of a seat in blue coins.

A room is addressed only by its `code` (unguessable, in every URL, the invite link of a private
room). A `RoomSeat` row is kept after its player leaves (`left_at`): it names the blue-coin charge
and its refund, so both are idempotent per seat taken.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Match

MOVE_SECONDS = (30, 60, 99)


def new_room_code() -> str:
    # 128 random bits: the invite link is the key to a private room, so it must not be guessable.
    return secrets.token_urlsafe(16)


class RoomSettings(models.Model):
    """Single row, edited in the admin: what taking a seat in a room costs."""

    entry_blue_coins = models.PositiveIntegerField(_("blue coins to create or join a room"), default=1)

    class Meta:
        verbose_name = _("room settings")
        verbose_name_plural = _("room settings")

    def __str__(self) -> str:
        return str(_("Room settings"))

    @classmethod
    def current(cls) -> "RoomSettings":
        return cls.objects.get_or_create(pk=1)[0]


class Room(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        STARTED = "started", _("Started")
        CLOSED = "closed", _("Closed")

    class Mode(models.TextChoices):
        COMPETITIVE = "competitive", _("Competitive")
        PRACTICE = "practice", _("Practice")

    code = models.CharField(max_length=32, unique=True, default=new_room_code, editable=False)
    is_private = models.BooleanField(_("private"), default=False)
    name = models.CharField(_("room name"), max_length=40, blank=True)
    # Django's password hasher (make_password); never shown again, not even to the chief.
    password_hash = models.CharField(max_length=128, blank=True)
    # A private room's friends of the chief sit without the password (issue 33).
    friends_only = models.BooleanField(_("the chief's friends sit without the password"), default=False)
    chief = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="rooms_led",
        verbose_name=_("chief"),
    )
    rules = models.JSONField(_("rules"))
    # Copied out of `rules` so the lobby can filter and quick join can match on them.
    variant = models.CharField(max_length=12)
    seats = models.PositiveSmallIntegerField()
    partnership = models.BooleanField(default=False)
    move_seconds = models.PositiveSmallIntegerField(_("seconds per move"), default=99)
    mode = models.CharField(_("mode"), max_length=12, choices=Mode.choices, default=Mode.COMPETITIVE)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    # The chief's table options (issue 12 item 1), changed only before a match or between matches.
    # Coins each person stakes on a match (0: none); the match gets a copy when it starts.
    stake_coins = models.PositiveIntegerField(_("stake per match (coins)"), default=0)
    allow_spectators = models.BooleanField(_("allow spectators"), default=True)
    partner_signals = models.BooleanField(_("partner signals"), default=False)
    # When the chief opened the options panel (None: closed): the others see the icon "being changed".
    options_opened_at = models.DateTimeField(null=True, blank=True)
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="room")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["status", "is_private", "variant", "seats"], name="rooms_lobby")]

    def __str__(self) -> str:
        return self.name or f"{self.get_status_display()} {self.code[:6]}"

    @property
    def ruleset(self) -> engine.RuleSet:
        return engine.RuleSet.from_dict(self.rules)


class RoomSeat(models.Model):
    """A person in a room: the seat they hold, where from, and what they paid for it."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="room_seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    # REMOTE_ADDR when the seat was taken (the same-address rule for rank points comes later, issue 11 item 9).
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    blue_coins_paid = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    removed = models.BooleanField(default=False)  # the chief removed them (rather than they left)

    class Meta:
        verbose_name = _("room seat")
        verbose_name_plural = _("room seats")
        ordering = ["room", "number"]
        constraints = [
            # The database backs the services' row locks: one person per seat, one seat per person.
            models.UniqueConstraint(
                fields=["room", "number"], condition=Q(left_at__isnull=True), name="rooms_one_person_per_seat"
            ),
            models.UniqueConstraint(
                fields=["room", "user"], condition=Q(left_at__isnull=True), name="rooms_one_seat_per_person"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}:{self.number} {self.user}"


class ChatLine(models.Model):
    """One line said at a room's table (waiting room and match): free text or one of the quick phrases.

    A quick phrase is stored by its code and shown in each reader's language. Lines go with their
    author's account (CASCADE): what a person wrote is their personal data.
    """

    class Phrase(models.TextChoices):
        TRUCO = "truco", _("Truco!")
        NICE = "nice", _("Nice one!")
        LETS_GO = "lets_go", _("Let's go!")

    MAX_LENGTH = 200

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat_lines")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_lines")
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=12, choices=Phrase.choices, blank=True)
    created_at = models.DateTimeField(_("said at"), auto_now_add=True, db_index=True)
    # Staff hide a reported line in the admin: it disappears from every open chat and from the history.
    hidden = models.BooleanField(_("hidden"), default=False)
    # Written by someone watching the match, not seated (the chief may mute spectators, not players).
    by_spectator = models.BooleanField(_("by a spectator"), default=False)

    class Meta:
        verbose_name = _("chat line")
        verbose_name_plural = _("chat lines")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["room", "hidden", "-id"], name="rooms_chat_recent"),
            models.Index(fields=["author", "created_at"], name="rooms_chat_rate"),
        ]

    def __str__(self) -> str:
        return self.text or self.get_phrase_display()


class ChatMute(models.Model):
    """The chief muted a spectator at this room's table: their lines are refused (players cannot be muted)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat_mutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("muted by")
    )
    created_at = models.DateTimeField(_("muted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("muted spectator")
        verbose_name_plural = _("muted spectators")
        constraints = [models.UniqueConstraint(fields=["room", "user"], name="rooms_chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.room_id}: {self.user}"


class ChatReport(models.Model):
    """Someone at the table reported a line to staff (once per person and line)."""

    line = models.ForeignKey(ChatLine, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports")
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["line", "reporter"], name="rooms_one_report_per_person")]

    def __str__(self) -> str:
        return f"{self.reporter} → {self.line_id}"


class PlayAgain(models.Model):
    """After a room's match: the offer to play again with the same people (issue 11 item 10).

    Open until every person in the room has accepted (a new room and match start, blue coins charged
    again), someone declines, someone lacks the blue coins when everyone has said yes, or
    `expires_at` (the match's end + ROOMS_PLAY_AGAIN_S) passes. One per room: a row lock on it
    serialises the answers.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for answers")
        STARTED = "started", _("Started again")
        DECLINED = "declined", _("Someone declined")
        EXPIRED = "expired", _("Time ran out")
        NO_BLUE_COINS = "no_blue_coins", _("Someone had no blue coins")
        NO_COINS = "no_coins", _("Someone could not cover the stake")

    room = models.OneToOneField(Room, on_delete=models.CASCADE, related_name="play_again")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    expires_at = models.DateTimeField()
    new_room = models.OneToOneField(
        Room, null=True, blank=True, on_delete=models.SET_NULL, related_name="played_again_from"
    )
    # Who declined, or lacked the blue coins (the others are told who).
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("play again offer")
        verbose_name_plural = _("play again offers")

    def __str__(self) -> str:
        return f"{self.room_id}: {self.status}"


class PlayAgainAnswer(models.Model):
    """One person's "yes" to playing again, with the address they said it from (their new seat's)."""

    play_again = models.ForeignKey(PlayAgain, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("play again answer")
        verbose_name_plural = _("play again answers")
        constraints = [models.UniqueConstraint(fields=["play_again", "user"], name="rooms_one_answer_per_person")]

    def __str__(self) -> str:
        return f"{self.play_again_id}: {self.user_id}"


class AnnulmentVote(models.Model):
    """A proposal to annul a room's match by agreement (issue 12 item 3, seed 002 "anular partida").

    Every person still at the table (robots and bots do not vote) must agree before `expires_at`;
    one refusal ends it, and so does the clock (read off `expires_at`, never stored by a read).
    One vote at a time per match: the room's row lock serialises proposals and answers.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Voting")
        ACCEPTED = "accepted", _("Everyone agreed")
        REFUSED = "refused", _("Someone refused")
        EXPIRED = "expired", _("Time ran out")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="annulment_votes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="annulment_votes")
    proposer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # The ids of the people who agreed so far (the proposer first).
    agreed = models.JSONField(default=list)
    refused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("annulment vote")
        verbose_name_plural = _("annulment votes")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["match", "-created_at"], name="rooms_annul_latest")]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.status}"


class Invitation(models.Model):
    """A room's chief asked a friend to sit in a waiting room (issue 33).

    The friend sees it live in the site's header wherever they are and takes a seat in one click,
    without the password (`services.sits_without_password`). It is pending while the room waits, the
    friend has not sat down and has not dismissed it: a room that starts or closes takes its invitations
    with it. Rows are kept (a dismissal is a date, not a deletion) so one room cannot invite the same
    person twice and the hourly limit counts every invitation sent; they go with either account (CASCADE).
    Whether the recipient has seen it is the header's one date, `Profile.notices_seen_at`.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent", verbose_name=_("sender")
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_received",
        verbose_name=_("recipient"),
    )
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    dismissed_at = models.DateTimeField(_("dismissed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["room", "recipient"], name="rooms_invite_once")]
        indexes = [
            models.Index(fields=["recipient", "dismissed_at"], name="rooms_invitations_pending"),
            models.Index(fields=["sender", "created_at"], name="rooms_invitations_rate"),
        ]

    def __str__(self) -> str:
        return f"{self.sender} → {self.recipient} ({self.room})"
