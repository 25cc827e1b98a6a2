"""Shop data: wallets and their append-only ledger, the catalogue, purchases, ownership and loadout.

Translations of catalogue text live in two columns per field (`name_en`, `name_pt_br`): the
catalogue is small, edited in the admin side by side, and needs no extra dependency. The
`name`/`description` properties pick the column for the active language (pt-BR is the default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import FileExtensionValidator
from django.db import models
from django.db.models import Q
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .images import validate_catalogue_image

COINS = "coins"
BLUE_COINS = "blue_coins"
GEMS = "gems"
REAL_MONEY = "real_money"


class Currency(models.TextChoices):
    COINS = COINS, _("coins")
    BLUE_COINS = BLUE_COINS, _("blue coins")
    GEMS = GEMS, _("gems")


class PriceCurrency(models.TextChoices):
    COINS = COINS, _("coins")
    BLUE_COINS = BLUE_COINS, _("blue coins")
    GEMS = GEMS, _("gems")
    REAL_MONEY = REAL_MONEY, _("real money")


class Wallet(models.Model):
    """One per user. Balances change only through `shop.wallet.change_balance`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wallet")
    coins = models.BigIntegerField(_("coins"), default=0)
    blue_coins = models.BigIntegerField(_("blue coins"), default=0)
    gems = models.BigIntegerField(_("gems"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("wallet")
        verbose_name_plural = _("wallets")
        constraints = [
            models.CheckConstraint(condition=Q(coins__gte=0), name="shop_wallet_coins_non_negative"),
            models.CheckConstraint(condition=Q(blue_coins__gte=0), name="shop_wallet_blue_coins_non_negative"),
            models.CheckConstraint(condition=Q(gems__gte=0), name="shop_wallet_gems_non_negative"),
        ]

    def __str__(self) -> str:
        return str(self.user)


class LedgerEntry(models.Model):
    """One balance change. Never updated nor deleted; on account deletion `wallet` and `actor` become NULL."""

    wallet = models.ForeignKey(Wallet, on_delete=models.SET_NULL, null=True, blank=True, related_name="ledger")
    currency = models.CharField(_("currency"), max_length=16, choices=Currency.choices)
    amount = models.BigIntegerField(_("amount"))
    balance_after = models.BigIntegerField(_("balance after"))
    reason = models.CharField(_("reason"), max_length=64)  # a `shop.money.Reason` (shop.wallet refuses others)
    reference = models.CharField(_("reference"), max_length=200, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    # The staff member who made an admin adjustment; NULL for everything the system does.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # NULL, not "": the unique constraint applies only where a key was given.
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["wallet", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="shop_ledger_idempotency_key_once_per_wallet",
            ),
            models.CheckConstraint(condition=Q(balance_after__gte=0), name="shop_ledger_balance_after_non_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.currency} ({self.reason})"

    def save(self, *args, **kwargs):
        # Append-only: a line, once written, is history. Anonymisation uses queryset.update().
        if self.pk is not None and not self._state.adding:
            raise ValueError("Ledger entries are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Ledger entries are append-only.")

    @property
    def currency_icon(self) -> str:
        """The currency's picture under static/shop/packs/."""
        return {COINS: "coin.svg", BLUE_COINS: "blue-coin.svg", GEMS: "gem.svg"}[self.currency]


class ItemKind(models.TextChoices):
    AVATAR = "avatar", _("Avatars")
    DECK = "deck", _("Card decks")
    COIN_PACK = "coin_pack", _("Coin packs")
    BLUE_COIN_PACK = "blue_coin_pack", _("Blue-coin packs")
    GEM_PACK = "gem_pack", _("Gem packs")


OWNABLE_KINDS = (ItemKind.AVATAR, ItemKind.DECK)
PACK_GRANTS: dict[str, str] = {ItemKind.COIN_PACK: COINS, ItemKind.BLUE_COIN_PACK: BLUE_COINS, ItemKind.GEM_PACK: GEMS}


class ItemQuerySet(models.QuerySet):
    def on_sale(self, now=None):
        now = now or timezone.now()
        return self.filter(
            Q(is_active=True),
            Q(available_from__isnull=True) | Q(available_from__lte=now),
            Q(available_until__isnull=True) | Q(available_until__gt=now),
        )


class Item(models.Model):
    """Something the shop sells: an avatar or deck (owned once) or a pack (consumed at purchase)."""

    slug = models.SlugField(_("slug"), unique=True)
    kind = models.CharField(_("kind"), max_length=20, choices=ItemKind.choices, db_index=True)
    name_en = models.CharField(_("name (English)"), max_length=80)
    name_pt_br = models.CharField(_("name (Portuguese)"), max_length=80)
    description_en = models.TextField(_("description (English)"), blank=True)
    description_pt_br = models.TextField(_("description (Portuguese)"), blank=True)
    price = models.PositiveIntegerField(_("price"), help_text=_("In the price currency; for real money, in cents."))
    price_currency = models.CharField(_("price currency"), max_length=16, choices=PriceCurrency.choices)
    # For packs: how much of the pack's currency one purchase credits.
    grant_amount = models.PositiveIntegerField(_("amount granted"), default=0)
    static_image = models.CharField(
        _("static image"), max_length=200, blank=True, help_text=_('Path under static/, e.g. "shop/avatars/sol.svg".')
    )
    # SVG uploads are refused: served from our origin an SVG could carry script.
    image = models.FileField(
        _("uploaded image"),
        upload_to="shop/items/",
        blank=True,
        validators=[FileExtensionValidator(["png", "jpg", "jpeg", "webp"])],
        help_text=_("Replaces the static image when set."),
    )
    face_style = models.SlugField(
        _("face style"), blank=True, help_text=_("Decks only: the CSS class name the table uses for card faces.")
    )
    is_active = models.BooleanField(_("active"), default=True)
    display_order = models.PositiveIntegerField(_("display order"), default=100)
    available_from = models.DateTimeField(_("available from"), null=True, blank=True)
    available_until = models.DateTimeField(_("available until"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = ItemQuerySet.as_manager()

    class Meta:
        verbose_name = _("item")
        verbose_name_plural = _("items")
        ordering = ["kind", "display_order", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(available_from__isnull=True)
                | Q(available_until__isnull=True)
                | Q(available_until__gt=models.F("available_from")),
                name="shop_item_window_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self):
        if self.image and not self.image._committed:  # a new upload (a stored one was checked when it came)
            try:
                validate_catalogue_image(self.image.file)
            except ValidationError as error:
                raise ValidationError({"image": error.messages}) from error
        if self.kind == ItemKind.GEM_PACK and self.price_currency != REAL_MONEY:
            raise ValidationError({"price_currency": _("Gem packs are paid with real money.")})
        if self.kind != ItemKind.GEM_PACK and self.price_currency == REAL_MONEY:
            raise ValidationError({"price_currency": _("Only gem packs are paid with real money.")})
        if self.kind in PACK_GRANTS and self.grant_amount <= 0:
            raise ValidationError({"grant_amount": _("A pack must grant something.")})
        if self.kind == ItemKind.DECK and not self.face_style:
            raise ValidationError({"face_style": _("A deck needs a face style.")})

    @property
    def name(self) -> str:
        return self.name_pt_br if _is_portuguese() else self.name_en

    @property
    def description(self) -> str:
        return self.description_pt_br if _is_portuguese() else self.description_en

    @property
    def real_price(self) -> Decimal:
        """Real-money price in currency units (stored in cents)."""
        return Decimal(self.price) / 100

    @property
    def is_ownable(self) -> bool:
        return self.kind in OWNABLE_KINDS

    @property
    def grant_currency(self) -> str | None:
        return PACK_GRANTS.get(self.kind)

    @property
    def grant_currency_label(self) -> StrOrPromise:
        return Currency(self.grant_currency).label if self.grant_currency else ""

    @property
    def image_url(self) -> str:
        if self.image:
            return self.image.url
        return static(self.static_image) if self.static_image else ""

    @property
    def profile_avatar_value(self) -> str:
        """What `Profile.avatar` stores for this avatar: a static path or an uploaded image's URL."""
        return self.image.url if self.image else self.static_image

    def is_on_sale(self, now=None) -> bool:
        now = now or timezone.now()
        return (
            self.is_active
            and (self.available_from is None or self.available_from <= now)
            and (self.available_until is None or self.available_until > now)
        )


def _is_portuguese() -> bool:
    return (get_language() or settings.LANGUAGE_CODE).lower().startswith("pt")


class ShopSettings(models.Model):
    """The admin-editable starter grant (a single row, pk=1)."""

    starter_coins = models.PositiveIntegerField(_("starter coins"), default=100)
    starter_blue_coins = models.PositiveIntegerField(_("starter blue coins"), default=5)
    starter_gems = models.PositiveIntegerField(_("starter gems"), default=0)
    starter_avatar = models.ForeignKey(
        Item,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        limit_choices_to={"kind": ItemKind.AVATAR},
        verbose_name=_("starter avatar"),
    )
    starter_deck = models.ForeignKey(
        Item,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        limit_choices_to={"kind": ItemKind.DECK},
        verbose_name=_("starter deck"),
    )

    class Meta:
        verbose_name = _("shop settings")
        verbose_name_plural = _("shop settings")

    def __str__(self) -> str:
        return str(_("Shop settings"))

    @classmethod
    def load(cls) -> ShopSettings:
        obj, _created = cls.objects.get_or_create(pk=1)
        return obj


class PurchaseStatus(models.TextChoices):
    PENDING = "pending", _("waiting for payment")
    COMPLETED = "completed", _("completed")
    FAILED = "failed", _("failed")


class Purchase(models.Model):
    """A record of buying one item. Kept (anonymised) when the buyer deletes their account."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="purchases"
    )
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="purchases")
    price = models.PositiveIntegerField(_("price"))
    price_currency = models.CharField(_("price currency"), max_length=16, choices=PriceCurrency.choices)
    status = models.CharField(
        _("status"), max_length=16, choices=PurchaseStatus.choices, default=PurchaseStatus.PENDING
    )
    provider = models.CharField(_("payment provider"), max_length=20, default="wallet")
    # NULL, not "": uniqueness applies only to the references and keys that exist.
    provider_reference = models.CharField(  # noqa: DJ001
        _("provider reference"), max_length=200, null=True, blank=True, unique=True
    )
    # From the confirm form: the same form submitted twice is the same purchase.
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    completed_at = models.DateTimeField(_("completed"), null=True, blank=True)

    class Meta:
        verbose_name = _("purchase")
        verbose_name_plural = _("purchases")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="shop_purchase_idempotency_key_once_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.item}"


class Ownership(models.Model):
    """The user owns this avatar or deck (packs are consumed, never owned)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_items")
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="owners")
    acquired_at = models.DateTimeField(_("acquired"), default=timezone.now)
    how = models.CharField(_("how"), max_length=32, default="purchase")

    class Meta:
        verbose_name = _("owned item")
        verbose_name_plural = _("owned items")
        constraints = [models.UniqueConstraint(fields=["user", "item"], name="shop_ownership_once_per_user")]

    def __str__(self) -> str:
        return f"{self.user} — {self.item}"


class Loadout(models.Model):
    """What the player currently uses. The avatar is mirrored into `Profile.avatar` for display."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="loadout")
    avatar = models.ForeignKey(Item, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    deck = models.ForeignKey(Item, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        verbose_name = _("loadout")
        verbose_name_plural = _("loadouts")

    def __str__(self) -> str:
        return str(self.user)
