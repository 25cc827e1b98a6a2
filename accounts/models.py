"""The user (its username is the public display name) and the player's profile."""

from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from .names import canonical, lookalike_key
from .validators import DISPLAY_NAME_MAX, display_name_validators

DEFAULT_AVATAR = "avatars/default.svg"


class User(AbstractUser):
    username = models.CharField(
        _("display name"),
        max_length=DISPLAY_NAME_MAX,
        unique=True,
        validators=display_name_validators,
        help_text=_("3 to 20 letters, digits, “_” or “-”. Shown to other players."),
        error_messages={"unique": _("That display name is already taken.")},
    )
    email = models.EmailField(_("email address"), unique=True)
    # The display name's look-alike key (accounts.names): one player per key, so nobody can take a
    # name that reads like someone else's. Written by save(); NULL (not "": unique) only for an old row
    # whose key an older look-alike already held when the key was introduced.
    name_key = models.CharField(_("look-alike key"), max_length=200, unique=True, null=True, editable=False)  # noqa: DJ001

    objects = UserManager()  # type: ignore[misc]  # django-stubs declares it a ClassVar on AbstractUser

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            # "Ana" and "ana" are the same player name.
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    @property
    def display_name(self) -> str:
        return self.username

    def clean(self):
        super().clean()  # NFKC-normalises the username
        error = display_name_unavailable(self.username, exclude_pk=self.pk)
        if error is not None:
            raise ValidationError({"username": error})

    def save(self, *args, **kwargs):
        self.name_key = lookalike_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields and "name_key" not in update_fields:
            kwargs["update_fields"] = [*update_fields, "name_key"]
        super().save(*args, **kwargs)


def display_name_unavailable(name: str, *, exclude_pk=None) -> ValidationError | None:
    """Why `name` cannot be someone's new display name (taken, or too like a taken one), or None."""
    others = User.objects.exclude(pk=exclude_pk) if exclude_pk is not None else User.objects.all()
    holder = others.filter(name_key=lookalike_key(name)).only("username").first()
    if holder is None:
        # Rows older than name_key, and PostgreSQL's own idea of lower case (the unique constraint).
        holder = others.filter(username__iexact=canonical(name)).only("username").first()
    if holder is None:
        return None
    if canonical(holder.username).casefold() == canonical(name).casefold():
        return ValidationError(_("That display name is already taken."), code="display_name_taken")
    return ValidationError(
        _("That display name looks too much like “%(name)s”, another player's."),
        code="display_name_lookalike",
        params={"name": holder.username},
    )


class Profile(models.Model):
    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    country = CountryField(_("country"), blank=True)
    # What the equipped avatar looks like: a static path ("avatars/x.svg") or a full URL of an
    # uploaded image ("/media/..."). The shop writes it when an avatar is equipped, so accounts
    # never has to import the shop.
    avatar = models.CharField(_("avatar"), max_length=300, default=DEFAULT_AVATAR)
    # Off: the player is on no public leaderboard and their public profile shows no statistics
    # (their own pages still show everything).
    public_stats = models.BooleanField(
        _("show me on public leaderboards"),
        default=True,
        help_text=_("When off, you appear on no public leaderboard and your public profile shows no statistics."),
    )
    # Off: the table's chat shows nothing to this person (they may still play; issue 12).
    table_chat = models.BooleanField(
        _("show the table chat"),
        default=True,
        help_text=_("When off, you see no chat at room tables and cannot write in it."),
    )
    # Off: friends see neither that the person is online nor where (a waiting room, a match; issue 33).
    show_whereabouts = models.BooleanField(
        _("show my friends when I am online and where I am playing"),
        default=True,
        help_text=_(
            "When off, your friends see neither whether you are online nor whether you are in a room or playing "
            "a match."
        ),
    )
    # When a page of the site last had its header's socket open (`accounts.presence`): "online now".
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    # When the person last opened the header's notices: what came after is counted as new there.
    notices_seen_at = models.DateTimeField(_("notices seen"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.user.username

    def statistics_shown_to(self, viewer) -> bool:
        """Whether `viewer` sees this player's statistics (and what goes with them on the public profile):
        everyone does, unless the player keeps them to themselves; the player always does."""
        return self.public_stats or bool(viewer is not None and viewer.is_authenticated and viewer.pk == self.user_id)

    @property
    def avatar_url(self) -> str:
        if self.avatar.startswith(("/", "http://", "https://")):
            return self.avatar
        return static(self.avatar)


class FriendRequest(models.Model):
    """A request from one person to another to be friends, until it is answered or withdrawn (issue 33)."""

    sender = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friend_requests_sent")
    recipient = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friend_requests_received")
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [models.UniqueConstraint(fields=["sender", "recipient"], name="accounts_one_request_per_pair")]

    def __str__(self) -> str:
        return f"{self.sender_id} → {self.recipient_id}"


class Friendship(models.Model):
    """Two friends: one row each way, so "my friends" is one indexed read (`accounts.friends`)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField(_("friends since"), auto_now_add=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [models.UniqueConstraint(fields=["user", "friend"], name="accounts_one_friendship_per_pair")]

    def __str__(self) -> str:
        return f"{self.user_id} ↔ {self.friend_id}"


class Block(models.Model):
    """One person blocks another: no request, invitation or chat line of theirs reaches the blocker, and
    quick join never seats the two together (issue 33)."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(_("blocked"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_one_block_per_pair")]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"
