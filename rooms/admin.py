from django.contrib import admin, messages
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReadOnlySocialAdmin

from . import chat
from .models import AnnulmentVote, ChatLine, ChatReport, Invitation, Room, RoomSeat, RoomSettings


class RoomSeatInline(admin.TabularInline):
    model = RoomSeat
    extra = 0
    can_delete = False
    fields = ("number", "user", "ip_address", "blue_coins_paid", "joined_at", "left_at", "removed")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    # Read-only: rooms change through their services (seats, coins and the match move together).
    list_display = ("__str__", "status", "is_private", "variant", "seats", "mode", "stake_coins", "chief", "created_at")
    list_filter = ("status", "is_private", "variant", "seats", "mode")
    readonly_fields = (
        "code",
        "is_private",
        "name",
        "chief",
        "rules",
        "variant",
        "seats",
        "partnership",
        "move_seconds",
        "mode",
        "stake_coins",
        "allow_spectators",
        "partner_signals",
        "options_opened_at",
        "status",
        "match",
        "created_at",
        "started_at",
        "closed_at",
    )
    exclude = ("password_hash",)
    inlines = [RoomSeatInline]

    def has_add_permission(self, request):
        return False


@admin.register(RoomSettings)
class RoomSettingsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "entry_blue_coins")

    def has_add_permission(self, request):
        return not RoomSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


class ChatReportInline(admin.TabularInline):
    model = ChatReport
    extra = 0
    can_delete = False
    fields = ("reporter", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin):
    """Reported lines first; staff hide (or show again) lines with the actions, which also clear open chats."""

    list_display = ("__str__", "author", "room", "created_at", "report_count", "hidden")
    list_filter = ("hidden", ("reports", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__username")
    readonly_fields = ("room", "author", "text", "phrase", "created_at", "hidden")
    inlines = [ChatReportInline]
    actions = ["hide_selected", "show_selected"]

    def get_queryset(self, request):
        # Not super(): it orders by get_ordering() before the report count exists.
        return ChatLine.objects.select_related("author", "room").annotate(report_total=Count("reports"))

    def get_ordering(self, request):
        return ["-report_total", "-created_at"]

    @admin.display(description=_("reports"), ordering="report_total")
    def report_count(self, line):
        return line.report_total

    @admin.action(description=_("Hide the selected lines"))
    def hide_selected(self, request, queryset):
        count = chat.hide_lines(queryset)
        self.message_user(request, _("%(count)d line(s) hidden.") % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Show the selected lines again"))
    def show_selected(self, request, queryset):
        count = chat.show_lines(queryset)
        self.message_user(request, _("%(count)d line(s) shown again.") % {"count": count}, messages.SUCCESS)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        # Read-only pages; the actions above are what staff do here (they need only the view permission
        # plus this switch, so hiding stays a staff action).
        return request.user.is_staff


@admin.register(AnnulmentVote)
class AnnulmentVoteAdmin(admin.ModelAdmin):
    # Read-only: a vote changes only through rooms.annulment (with the match it may annul).
    list_display = ("__str__", "match", "proposer", "status", "refused_by", "created_at", "ended_at")
    list_filter = ("status",)
    readonly_fields = (
        "room",
        "match",
        "proposer",
        "status",
        "agreed",
        "refused_by",
        "created_at",
        "expires_at",
        "ended_at",
    )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return request.method in ("GET", "HEAD") and super().has_change_permission(request, obj)


@admin.register(Invitation)
class InvitationAdmin(ReadOnlySocialAdmin):
    """Invitations are the chief's and their friend's: staff may look (and delete), never send one."""

    list_display = ("sender", "recipient", "room", "created_at", "dismissed_at")
    search_fields = ("sender__username", "recipient__username", "room__code", "room__name")
    list_select_related = ("sender", "recipient", "room")
