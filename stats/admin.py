"""Staff pages of stats: statistics read-only (with a recompute action), achievements editable."""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .achievements import RULES
from .models import Achievement, CountedMatch, EarnedAchievement, PlayerStats, RankPointAward
from .services import rebuild_statistics


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(RankPointAward)
class RankPointAwardAdmin(ReadOnlyAdmin):
    list_display = ("user", "points", "reason", "reference", "created_at")
    list_filter = ("reason", "created_at")
    search_fields = ("user__username", "reference")
    list_select_related = ("user",)


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "played", "won", "current_streak", "best_streak", "updated_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = ("user", "counters", "current_streak", "best_streak", "updated_at")
    actions = ["recompute_statistics"]

    @admin.display(description=_("played"))
    def played(self, obj):
        return obj.count("played")

    @admin.display(description=_("won"))
    def won(self, obj):
        return obj.count("won")

    @admin.action(description=_("Recompute every player's statistics from the stored matches"), permissions=["view"])
    def recompute_statistics(self, request, queryset):
        # The rebuild is all or nothing (one transaction), whatever rows were ticked.
        players = rebuild_statistics()
        self.message_user(
            request,
            ngettext("Statistics recomputed for %(n)d player.", "Statistics recomputed for %(n)d players.", players)
            % {"n": players},
            messages.SUCCESS,
        )


@admin.register(CountedMatch)
class CountedMatchAdmin(ReadOnlyAdmin):
    list_display = ("user", "reference", "won", "mode", "variant", "finished_at")
    list_filter = ("mode", "variant", "won")
    search_fields = ("user__username", "reference")
    list_select_related = ("user",)


class AchievementForm(forms.ModelForm):
    class Meta:
        model = Achievement
        fields = [
            "code",
            "name_en",
            "name_pt_br",
            "description_en",
            "description_pt_br",
            "icon",
            "tier",
            "coin_reward",
            "active",
            "position",
        ]

    def clean_code(self):
        code = self.cleaned_data["code"]
        if code not in RULES:
            raise forms.ValidationError(
                _("No rule in the code earns “%(code)s”. Known rules: %(rules)s."),
                params={"code": code, "rules": ", ".join(sorted(RULES))},
            )
        return code


@admin.register(Achievement)
class AchievementAdmin(admin.ModelAdmin):
    form = AchievementForm
    list_display = ("code", "name_en", "name_pt_br", "tier", "icon", "coin_reward", "active", "position", "has_rule")
    list_editable = ("active", "position")
    list_filter = ("tier", "active")
    search_fields = ("code", "name_en", "name_pt_br")

    @admin.display(boolean=True, description=_("rule in code"))
    def has_rule(self, obj):
        # The rules are code (stats.achievements); an achievement without one is never awarded.
        return obj.code in RULES


@admin.register(EarnedAchievement)
class EarnedAchievementAdmin(ReadOnlyAdmin):
    list_display = ("user", "achievement", "reference", "earned_at")
    list_filter = ("achievement",)
    search_fields = ("user__username", "achievement__code")
    list_select_related = ("user", "achievement")
