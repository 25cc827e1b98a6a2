from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Match, MatchEvent, RewardSettings, Seat, Tournament


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "display_name", "user", "bot_level", "guest_token")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class MatchEventInline(admin.TabularInline):
    model = MatchEvent
    extra = 0
    can_delete = False
    fields = ("version", "seat", "actor", "data", "created_at")
    readonly_fields = fields
    ordering = ("id",)

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("public_id", "kind", "players", "variant", "status", "score", "version", "bot_level", "created_at")
    list_filter = ("status", "kind", "bot_level", "created_at")
    search_fields = ("public_id", "seats__display_name", "seats__user__username")
    readonly_fields = (
        "public_id",
        "kind",
        "tournament",
        "tournament_stage",
        "rules",
        "bot_level",
        "move_seconds",
        "version",
        "status",
        "score",
        "winner_side",
        "deadline",
        "deadline_seat",
        "turn_started_at",
        "rewards_credited",
        "created_at",
        "updated_at",
        "finished_at",
    )
    # The engine state holds every hidden card and the deck order: staff see the event log instead.
    # (`start_state` and the events' `action`, which names face-down cards, are not editable fields:
    # no admin form shows them.)
    exclude = ("state",)
    inlines = [SeatInline, MatchEventInline]

    @admin.display(description=_("players"))
    def players(self, obj):
        return ", ".join(s.display_name for s in obj.seats.all())

    @admin.display(description=_("variant"))
    def variant(self, obj):
        return f"{obj.rules.get('variant')} · {obj.rules.get('deck')} · {obj.rules.get('seats')}"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats")

    def has_add_permission(self, request):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("public_id", "user", "stage", "status", "created_at", "finished_at")
    list_filter = ("status", "stage")
    search_fields = ("public_id", "user__username")
    readonly_fields = ("public_id", "user", "rules", "stage", "status", "created_at", "finished_at")


@admin.register(RewardSettings)
class RewardSettingsAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "single_win_coins",
        "single_win_rank_points",
        "single_loss_coins",
        "single_loss_rank_points",
        "tournament_win_coins",
        "tournament_win_rank_points",
        "room_win_coins",
        "room_win_rank_points",
        "room_loss_coins",
        "room_loss_rank_points",
    )
    # The room amounts beside the others: competitive rooms only; nothing when a player left, no rank
    # points when two people at the table share an address (games.selectors.reward_note).
    fieldsets = (
        (
            _("Single match against the AI"),
            {"fields": ("single_win_coins", "single_win_rank_points", "single_loss_coins", "single_loss_rank_points")},
        ),
        (_("Tournament final"), {"fields": ("tournament_win_coins", "tournament_win_rank_points")}),
        (
            _("Competitive room (people)"),
            {"fields": ("room_win_coins", "room_win_rank_points", "room_loss_coins", "room_loss_rank_points")},
        ),
    )

    def has_add_permission(self, request):
        return not RewardSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
