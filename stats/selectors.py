"""Reads of stats: a player's statistics page, achievements with progress, and leaderboard pages.

Leaderboards read only `RankPointTotal` (one row per player and period, kept by the services), so a
page is a fixed number of index-range queries whatever the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count
from django.db.models.functions import TruncDate
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_countries import countries

from . import achievements as rules
from .charts import line_chart, sample
from .facts import MODES
from .models import Achievement, CountedMatch, EarnedAchievement, PlayerStats, RankPointAward, RankPointTotal
from .services import period_starts

PAGE_SIZE = 25
DISTRIBUTION_SECONDS = 60
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
            # Room matches the player left, or stayed away from past the grace period (a robot finished).
            "abandoned": c.get("abandoned", 0),
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


def _distribution(period: str, country: str, listed) -> list[tuple[int, int]]:
    """[(points, how many listed players have exactly that many)], most points first.

    Counting 100,000 rows costs ~50 ms on a busy small machine, so this is read once a minute per
    board and kept in the cache: the number of distinct point values is small (hundreds), and every
    position, the number of pages and where a page starts are sums over it. The rows shown are live.
    """
    key = f"stats:board:{period}:{period_starts(timezone.localdate())[period]}:{country or '-'}"
    cached = cache.get(key)
    if cached is None:
        cached = list(listed.order_by("-points").values_list("points").annotate(players=Count("id")))
        cache.set(key, cached, DISTRIBUTION_SECONDS)
    return cached


def _position(distribution: list[tuple[int, int]], points: int) -> int:
    """Competition ranking: one more than the players with more points (ties share a position)."""
    return _positions(distribution, [points])[points]


def _positions(distribution: list[tuple[int, int]], points: list[int]) -> dict[int, int]:
    """{points: position} for several values in one pass over the distribution (most points first)."""
    wanted = sorted(set(points), reverse=True)
    found, above, i = {}, 0, 0
    for value in wanted:
        while i < len(distribution) and distribution[i][0] > value:
            above += distribution[i][1]
            i += 1
        found[value] = above + 1
    return found


# More digits than any board's page count will have; int() refuses 4,300 and more anyway.
PAGE_DIGITS_MAX = 9


def parse_page(raw) -> int:
    """A page number from a URL: plain ASCII digits only ("²" and "١" pass `str.isdigit` but not `int`)."""
    text = "" if raw is None else str(raw)
    if text == "":
        return 1
    if not (text.isascii() and text.isdigit()) or len(text) > PAGE_DIGITS_MAX or int(text) < 1:
        raise BadLeaderboardRequest(_("“%(page)s” is not a page number.") % {"page": text[:20]})
    return int(text)


def parse_country(raw) -> str:
    if not raw:
        return ""
    code = str(raw).upper()
    if len(code) != 2 or not code.isalpha() or code not in countries:
        raise BadLeaderboardRequest(_("“%(code)s” is not a country we know.") % {"code": str(raw)[:20]})
    return code


def leaderboard(period: str, *, country: str = "", page: int = 1, viewer=None) -> dict:
    """One page of a leaderboard, ties sharing a position, and the viewer's own position.

    Four queries at most whatever the page and the number of players: the board's points
    distribution (once a minute, cached), the page's rows from an index, their players, and the
    viewer's own row.
    """
    if period not in LEADERBOARD_PERIODS:
        raise BadLeaderboardRequest(_("There is no such leaderboard."))
    board = _board(period, country)
    listed = board.filter(listed=True, points__gt=0)
    distribution = _distribution(period, country, listed)
    total = sum(players for _points, players in distribution)
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:
        raise BadLeaderboardRequest(
            _("There is no page %(page)s: this leaderboard has %(pages)s.") % {"page": page, "pages": pages}
        )
    rows = _rows(listed, distribution, (page - 1) * PAGE_SIZE, PAGE_SIZE, viewer)
    mine = None
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        own = board.filter(user_id=viewer.pk, points__gt=0).first()
        if own is not None:
            # Your own position counts the listed players above you, even while you are hidden.
            mine = BoardRow(
                _position(distribution, own.points),
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


def _rows(listed, distribution, offset: int, limit: int, viewer) -> list[BoardRow]:
    """`limit` rows from `offset` of the listed board, each with its position.

    The distribution says which points value the offset falls in, so the query starts there (an
    index range) and skips only the players tied at that value above the page, never the whole
    board above it.
    """
    above, ceiling, skip = 0, None, offset
    for value, players in distribution:
        if above + players > offset:
            ceiling, skip = value, offset - above
            break
        above += players
    rows_from = listed if ceiling is None else listed.filter(points__lte=ceiling)
    entries = list(
        rows_from.order_by("-points", "user_id").values_list("user_id", "points", "country")[skip : skip + limit]
    )
    users = {
        u.pk: u
        for u in get_user_model()
        .objects.filter(pk__in=[user_id for user_id, _p, _c in entries])
        .select_related("profile")
        .only("username", "profile__avatar")
    }
    me = getattr(viewer, "pk", None)
    positions = _positions(distribution, [points for _u, points, _c in entries])
    rows = []
    for user_id, points, country in entries:
        user = users.get(user_id)
        if user is None:
            continue  # deleted between the two reads
        profile = getattr(user, "profile", None)
        rows.append(
            BoardRow(
                positions[points],
                user_id,
                user.username,
                country,
                points,
                profile.avatar_url if profile is not None else None,
                me is not None and user_id == me,
            )
        )
    return rows


def top_of_leaderboard(limit: int = 5) -> list[dict]:
    """The home page's top of the all-time leaderboard: [{"position", "name", "url", "points"}] (one query)."""
    listed = _board("all", "").filter(listed=True, points__gt=0)
    distribution = _distribution("all", "", listed)
    return [
        {
            "position": r.position,
            "name": r.name,
            "url": reverse("accounts:public_profile", args=[r.name]),
            "points": r.points,
        }
        for r in _rows(listed, distribution, 0, limit, None)
    ]


_COUNTRY_CHOICES: dict[str, list[tuple[str, str]]] = {}


def countries_on_boards() -> list[tuple[str, str]]:
    """Every country (code, name) for the country picker, in the page's language (sorted once per
    language per process: django-countries sorts ~250 translated names on every iteration)."""
    language = get_language() or "en"
    if language not in _COUNTRY_CHOICES:
        _COUNTRY_CHOICES[language] = [(code, str(name)) for code, name in countries]
    return _COUNTRY_CHOICES[language]


def country_options(selected: str) -> str:
    """The country picker's <option>s, built in Python: a template loop over 250 countries cost
    most of the page's time."""
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((code, mark_safe(" selected") if code == selected else "", name) for code, name in countries_on_boards()),
    )
