"""Admin: catalogue CRUD, read-only ledger and purchases, wallet adjustments only through an action."""

from django.contrib import admin, messages
from django.db import transaction
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from . import money, wallet
from .forms import WalletAdjustmentForm
from .models import Item, LedgerEntry, Loadout, Ownership, Purchase, ShopSettings, Wallet


class OnSaleFilter(admin.SimpleListFilter):
    title = _("on sale now")
    parameter_name = "on_sale"

    def lookups(self, request, model_admin):
        return (("yes", _("Yes")), ("no", _("No")))

    def queryset(self, request, queryset):
        on_sale = Item.objects.on_sale().values("pk")
        if self.value() == "yes":
            return queryset.filter(pk__in=on_sale)
        if self.value() == "no":
            return queryset.exclude(pk__in=on_sale)
        return queryset


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records that are history (ledger lines, purchases): staff look, nobody edits."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = (
        "thumbnail",
        "name_en",
        "name_pt_br",
        "kind",
        "price",
        "price_currency",
        "grant_amount",
        "is_active",
        "display_order",
        "available_from",
        "available_until",
    )
    list_display_links = ("thumbnail", "name_en")
    list_editable = ("is_active", "display_order")
    list_filter = ("kind", "price_currency", "is_active", OnSaleFilter)
    search_fields = ("slug", "name_en", "name_pt_br")
    prepopulated_fields = {"slug": ("name_en",)}
    fieldsets = (
        (None, {"fields": ("slug", "kind", "is_active", "display_order")}),
        (_("Text"), {"fields": ("name_en", "name_pt_br", "description_en", "description_pt_br")}),
        (_("Price"), {"fields": ("price", "price_currency", "grant_amount")}),
        (_("Look"), {"fields": ("static_image", "image", "face_style")}),
        (_("Availability window"), {"fields": ("available_from", "available_until")}),
    )

    @admin.display(description=_("image"))
    def thumbnail(self, obj):
        if not obj.image_url:
            return "—"
        return format_html('<img src="{}" alt="" width="40" height="40">', obj.image_url)


@admin.register(Wallet)
class WalletAdmin(admin.ModelAdmin):
    list_display = ("user", "coins", "blue_coins", "gems", "updated_at")
    search_fields = ("user__username", "user__email")
    readonly_fields = ("user", "coins", "blue_coins", "gems", "created_at", "updated_at")
    actions = ["adjust_balance"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Adjust balance (asks for a reason)"), permissions=["change"])
    def adjust_balance(self, request, queryset):
        form = WalletAdjustmentForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    targets = list(queryset.select_related("user").order_by("user_id"))
                    wallet.lock_wallets(target.user_id for target in targets)  # one ordered step (shop.wallet)
                    for target in targets:
                        wallet.change_balance(
                            target.user,
                            currency=data["currency"],
                            amount=data["amount"],
                            reason=money.Reason.ADMIN_ADJUSTMENT,
                            reference=money.ADMIN_REFERENCE,
                            note=data["reason"],
                            actor=request.user,
                        )
            except wallet.InsufficientFunds as refusal:
                self.message_user(request, refusal.message, messages.ERROR)
                return None
            self.message_user(
                request, _("Adjusted %(count)d wallet(s).") % {"count": queryset.count()}, messages.SUCCESS
            )
            return None
        return render(
            request,
            "admin/shop/wallet_adjustment.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Adjust balance"),
                "form": form,
                "wallets": queryset.select_related("user"),
                "opts": self.model._meta,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            },
        )


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "wallet", "currency", "amount", "balance_after", "reason", "reference", "actor")
    list_filter = ("currency", "reason", "created_at")
    search_fields = ("wallet__user__username", "reference", "note", "idempotency_key")
    date_hierarchy = "created_at"
    list_select_related = ("wallet__user", "actor")


@admin.register(Purchase)
class PurchaseAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "item", "price", "price_currency", "status", "provider", "provider_reference")
    list_filter = ("status", "provider", "price_currency", "item__kind")
    search_fields = ("user__username", "item__slug", "provider_reference")
    list_select_related = ("user", "item")


@admin.register(Ownership)
class OwnershipAdmin(admin.ModelAdmin):
    list_display = ("user", "item", "how", "acquired_at")
    list_filter = ("how", "item__kind")
    search_fields = ("user__username", "item__slug")
    autocomplete_fields = ("item",)
    raw_id_fields = ("user",)


@admin.register(Loadout)
class LoadoutAdmin(admin.ModelAdmin):
    list_display = ("user", "avatar", "deck")
    search_fields = ("user__username",)
    readonly_fields = ("user", "avatar", "deck")

    def has_add_permission(self, request):
        return False


@admin.register(ShopSettings)
class ShopSettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "starter_coins", "starter_blue_coins", "starter_gems", "starter_avatar", "starter_deck")

    def has_add_permission(self, request):
        return not ShopSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
