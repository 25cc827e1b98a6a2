from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import Block, FriendRequest, Friendship, Profile, User


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fields = ("country", "avatar", "created_at", "updated_at")
    readonly_fields = ("created_at", "updated_at")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "country", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "profile__country", "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    ordering = ("-date_joined",)
    list_select_related = ("profile",)

    @admin.display(description=_("country"), ordering="profile__country")
    def country(self, obj):
        return obj.profile.country.name if hasattr(obj, "profile") and obj.profile.country else "—"


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "country", "avatar", "created_at", "updated_at")
    list_filter = ("country", "created_at")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
    readonly_fields = ("created_at", "updated_at")
    autocomplete_fields = ("user",)


class ReadOnlySocialAdmin(admin.ModelAdmin):
    """Friends, requests and blocks are the players' own choices: staff may look (and delete, e.g. for a
    complaint), never make one on someone's behalf."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnlySocialAdmin):
    list_display = ("sender", "recipient", "created_at")
    search_fields = ("sender__username", "recipient__username")
    list_select_related = ("sender", "recipient")


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlySocialAdmin):
    list_display = ("user", "friend", "since")
    search_fields = ("user__username", "friend__username")
    list_select_related = ("user", "friend")


@admin.register(Block)
class BlockAdmin(ReadOnlySocialAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
