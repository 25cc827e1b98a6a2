"""The user (its username is the public display name) and the player's profile."""

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

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

    objects = UserManager()

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


class Profile(models.Model):
    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    country = CountryField(_("country"), blank=True)
    # What the equipped avatar looks like: a static path ("avatars/x.svg") or a full URL of an
    # uploaded image ("/media/..."). The shop writes it when an avatar is equipped, so accounts
    # never has to import the shop.
    avatar = models.CharField(_("avatar"), max_length=300, default=DEFAULT_AVATAR)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.user.username

    @property
    def avatar_url(self) -> str:
        if self.avatar.startswith(("/", "http://", "https://")):
            return self.avatar
        return static(self.avatar)
