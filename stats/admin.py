from django.contrib import admin

from .models import RankPointAward


@admin.register(RankPointAward)
class RankPointAwardAdmin(admin.ModelAdmin):
    list_display = ("user", "points", "reason", "reference", "created_at")
    list_filter = ("reason", "created_at")
    search_fields = ("user__username", "reference")
    list_select_related = ("user",)

    def has_change_permission(self, request, obj=None):
        return False
