from django.contrib import admin

from .models import Room, RoomSeat, RoomSettings


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
    list_display = ("__str__", "status", "is_private", "variant", "seats", "mode", "chief", "created_at")
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
