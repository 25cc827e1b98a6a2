"""Reads of stats: a player's statistics page, achievements with progress, and leaderboard pages.

Leaderboards read only `RankPointTotal` (one row per player and period, kept by the services), so a
page is a fixed number of index-range queries whatever the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models.functions import TruncDate
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_countries import countries

from . import achievements as rules
from .charts import line_chart, sample
from .facts import MODES
from .models import Achievement, CountedMatch, EarnedAchievement, PlayerStats, RankPointAward, RankPointTotal
from .services import period_starts

PAGE_SIZE = 25
LEADERBOARD_PERIODS = ("all", "week", "month")


def _rate(won: int, played: int) -> int | None:
    return round(100 * won / played) if played else None


def statistics_page(user) -> dict:
    """Everything the statistics page (and the public profile's section) shows."""
    stats = PlayerStats.objects.filter(user=user).first() or PlayerStats(user=user)
    c = stats.counters

    def pair(prefix: str) -> dict:
        played, won = c.get(f"{prefix}:played", 0), c.get(f"{prefix}:won", 0)
        return {"played": played, "won": won, "lost": played - won, "rate": _rate(won, played)}

    mode_labels = {"ai": _("Against the AI"), "tournament": _("Tournaments"), "multiplayer": _("Multiplayer")}
    by_mode = [{"label": mode_labels[m], "key": m, **pair(f"mode:{m}")} for m in MODES]
    by_variant = [
        {"label": label, "key": v, **pair(f"variant:{v}")}
        for v, label in (("paulista", "Paulista"), ("mineiro", "Mineiro"))
    ]
    by_seats = [{"label": _("%(n)s players") % {"n": n}, "key": str(n), **pair(f"seats:{n}")} for n in (2, 4)]
    return {
        "player": user,
        "stats": stats,
        "summary": {
            "played": c.get("played", 0),
            "won": c.get("won", 0),
            "lost": c.get("lost", 0),
            "rate": _rate(c.get("won", 0), c.get("played", 0)),
            "hands_played": c.get("hands_played", 0),
            "hands_won": c.get("hands_won", 0),
            "trucos_called": c.get("trucos_called", 0),
            "trucos_accepted": c.get("trucos_accepted", 0),
            "trucos_won": c.get("trucos_won", 0),
            "trucos_run": c.get("trucos_run", 0),
            "eleven_played": c.get("eleven_hands_played", 0),
            "eleven_won": c.get("eleven_hands_won", 0),
            "iron_played": c.get("iron_hands_played", 0),
            "iron_won": c.get("iron_hands_won", 0),
            "best_streak": stats.best_streak,
            "current_streak": stats.current_streak,
            "tournaments_won": c.get("tournaments_won", 0),
        },
        "by_mode": by_mode,
        "by_variant": by_variant,
        "by_seats": [row for row in by_seats if row["played"]],
        "points_chart": points_chart(user),
        "rate_chart": win_rate_chart(user),
        "earned_count": EarnedAchievement.objects.filter(user=user, achievement__active=True).count(),
    }


def points_chart(user) -> str:
    totals: dict = {}
    for day, points in (
        RankPointAward.objects.filter(user=user).annotate(day=TruncDate("created_at")).values_list("day", "points")
    ):
        totals[day] = totals.get(day, 0) + points
    running, values = 0, []
    for day in sorted(totals):
        running += totals[day]
        values.append(running)
    if len(values) == 1:
        values = [0, values[0]]
    return line_chart(sample(values), label=_("Rank points over time"))


def win_rate_chart(user) -> str:
    won = played = 0
    values = []
    for result in CountedMatch.objects.filter(user=user).order_by("finished_at", "id").values_list("won", flat=True):
        played += 1
        won += int(result)
        values.append(100 * won / played)
    return line_chart(sample(values), label=_("Win rate over time"), high=100, unit="%")


@dataclass
class AchievementRow:
    achievement: Achievement
    name: str
    description: str
    earned_at: object | None
    progress: int
    target: int

    @property
    def percent(self) -> int:
        return round(100 * self.progress / self.target) if self.target else 0


def achievements_page(user) -> list[AchievementRow]:
    """Every active achievement: the earned ones with their date, the locked ones with progress."""
    stats = PlayerStats.objects.filter(user=user).first() or PlayerStats(user=user)
    earned = {e.achievement_id: e.earned_at for e in EarnedAchievement.objects.filter(user=user)}
    language = get_language() or "en"
    rows = []
    for achievement in Achievement.objects.filter(active=True):
        progress = rules.progress_of(achievement.code, stats.counters, stats.best_streak) or (0, 1)
        done = achievement.pk in earned
        rows.append(
            AchievementRow(
                achievement,
                achievement.name(language),
                achievement.description(language),
                earned.get(achievement.pk),
                progress[1] if done else progress[0],
                progress[1],
            )
        )
    rows.sort(key=lambda r: (r.earned_at is None, r.achievement.position))
    return rows


def earned_in(user_id: int, reference: str) -> list[dict]:
    """The achievements a player earned with one match (the table's notice), in their language."""
    language = get_language() or "en"
    return [
        {
            "name": e.achievement.name(language),
            "tier": e.achievement.tier,
            "icon": e.achievement.icon,
            "code": e.achievement.code,
        }
        for e in EarnedAchievement.objects.filter(user_id=user_id, reference=reference, achievement__active=True)
        .select_related("achievement")
        .order_by("achievement__position")
    ]


# --- Leaderboards ------------------------------------------------------------------------------


class BadLeaderboardRequest(Exception):
    """A page or a country that does not exist; `message` says so to the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class BoardRow:
    position: int
    user_id: int
    name: str
    country: str
    points: int
    avatar_url: str | None = None
    me: bool = False
    listed: bool = True
    on_page: bool = False


def _board(period: str, country: str):
    starts_on = period_starts(timezone.localdate())[period]
    rows = RankPointTotal.objects.filter(period=period, starts_on=starts_on)
    if country:
        rows = rows.filter(country=country)
    return rows


def parse_page(raw) -> int:
    if raw in (None, ""):
        return 1
    if not str(raw).isdigit() or int(raw) < 1:
        raise BadLeaderboardRequest(_("“%(page)s” is not a page number.") % {"page": str(raw)[:20]})
    return int(raw)


def parse_country(raw) -> str:
    if not raw:
        return ""
    code = str(raw).upper()
    if len(code) != 2 or code not in dict(countries):
        raise BadLeaderboardRequest(_("“%(code)s” is not a country we know.") % {"code": str(raw)[:20]})
    return code


def leaderboard(period: str, *, country: str = "", page: int = 1, viewer=None) -> dict:
    """One page of a leaderboard, ties sharing a position, and the viewer's own position.

    Five queries at most whatever the page: count, the page, the rank of its first row, the
    viewer's row and the rank of the viewer's row.
    """
    if period not in LEADERBOARD_PERIODS:
        raise BadLeaderboardRequest(_("There is no such leaderboard."))
    board = _board(period, country)
    listed = board.filter(listed=True, points__gt=0)
    total = listed.count()
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:
        raise BadLeaderboardRequest(
            _("There is no page %(page)s: this leaderboard has %(pages)s.") % {"page": page, "pages": pages}
        )
    offset = (page - 1) * PAGE_SIZE
    rows = _rows(listed, offset, PAGE_SIZE, viewer)
    mine = None
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        own = board.filter(user_id=viewer.pk, points__gt=0).first()
        if own is not None:
            # Your own position counts only listed players above you, even while you are hidden.
            above = listed.filter(points__gt=own.points).exclude(user_id=viewer.pk).count()
            mine = BoardRow(
                above + 1,
                viewer.pk,
                viewer.username,
                own.country,
                own.points,
                me=True,
                listed=own.listed,
                on_page=any(r.me for r in rows),
            )
    return {
        "period": period,
        "country": country,
        "page": page,
        "pages": pages,
        "total": total,
        "rows": rows,
        "mine": mine,
        "has_previous": page > 1,
        "has_next": page < pages,
    }


def _rows(listed, offset: int, limit: int, viewer) -> list[BoardRow]:
    """`limit` rows from `offset` of the listed board, each with its position (ties share one)."""
    entries = list(
        listed.order_by("-points", "user_id")
        .select_related("user__profile")
        .only("user_id", "points", "country", "user__username", "user__profile__avatar")[offset : offset + limit]
    )
    rows: list[BoardRow] = []
    if not entries:
        return rows
    # The first row's position: 1 on the first page, else one more than the players above it.
    position = 1 if offset == 0 else listed.filter(points__gt=entries[0].points).count() + 1
    for i, entry in enumerate(entries):
        if i and entry.points != entries[i - 1].points:
            position = offset + i + 1
        profile = getattr(entry.user, "profile", None)
        rows.append(
            BoardRow(
                position,
                entry.user_id,
                entry.user.username,
                entry.country,
                entry.points,
                profile.avatar_url if profile is not None else None,
                viewer is not None and entry.user_id == getattr(viewer, "pk", None),
            )
        )
    return rows


def top_of_leaderboard(limit: int = 5) -> list[dict]:
    """The home page's top of the all-time leaderboard: [{"position", "name", "url", "points"}] (one query)."""
    listed = _board("all", "").filter(listed=True, points__gt=0)
    return [
        {
            "position": r.position,
            "name": r.name,
            "url": reverse("accounts:public_profile", args=[r.name]),
            "points": r.points,
        }
        for r in _rows(listed, 0, limit, None)
    ]


def countries_on_boards() -> list[tuple[str, str]]:
    """Every country (code, name) for the country picker."""
    return list(countries)
