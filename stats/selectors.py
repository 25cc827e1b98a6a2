"""Reads of stats: a player's statistics page, achievements with progress, and leaderboard pages.

Leaderboards read only `RankPointTotal` (one row per player and period) and `BoardTally` (how many
listed players each board has at each points value), both kept by the services in the same
transaction, so a page is a fixed number of index ranges whatever the number of players, read in one
statement: its positions and its points always agree (issue 28 item 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.functions import TruncDate
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_countries import countries

from . import achievements as rules
from . import levels
from .charts import line_chart, sample
from .facts import MODES
from .models import (
    Achievement,
    BoardTally,
    CountedMatch,
    EarnedAchievement,
    PlayerStats,
    RankPointAward,
    RankPointTotal,
)
from .services import FOLD_ABOVE, fold_tallies_safely, period_starts

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
        "level": levels.progress(levels.experience(c)),
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
    coins_paid: int = 0  # what unlocking it paid (0 also when unlocked in a match someone did not play)

    @property
    def percent(self) -> int:
        return round(100 * self.progress / self.target) if self.target else 0


def achievements_page(user) -> list[AchievementRow]:
    """Every active achievement: the earned ones with their date, the locked ones with progress."""
    stats = PlayerStats.objects.filter(user=user).first() or PlayerStats(user=user)
    earned = {e.achievement_id: e for e in EarnedAchievement.objects.filter(user=user)}
    language = get_language() or "en"
    rows = []
    for achievement in Achievement.objects.filter(active=True):
        progress = rules.progress_of(achievement.code, stats.counters, stats.best_streak) or (0, 1)
        mine = earned.get(achievement.pk)
        rows.append(
            AchievementRow(
                achievement,
                achievement.name(language),
                achievement.description(language),
                mine.earned_at if mine else None,
                progress[1] if mine else progress[0],
                progress[1],
                mine.coins_paid if mine else 0,
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
            "coins": e.coins_paid,
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
    level: int = 1  # issue 33: shown beside the name


# A board in one statement (PostgreSQL and SQLite alike), so its positions and its points are one read:
# a single statement sees one snapshot even while matches are being settled (issue 28 item 7).
#
# `sums`: the board's points distribution from its tallies (one folded row per points value, ~1,500 for
# 100,000 players, plus the changes not folded yet), added up in the database. `start`: how many players
# it lists and where its row number `offset` (from 0) falls: the first value whose running count passes
# it, the players above and at that value (no value passes it: the page is past the end, and the top row
# comes back to say so). `page`: the rows from there, an index range that skips only the players tied at
# that value above the page. `own`: the viewer's row and the listed players above it.
_BOARD_SQL = """
WITH sums AS (
    SELECT points, CAST(SUM(players) AS INTEGER) AS players, SUM(CASE WHEN folded THEN 0 ELSE 1 END) AS waiting
    FROM {tally} WHERE period = %(period)s AND starts_on = %(starts_on)s AND country = %(country)s
    GROUP BY points
), running AS (
    SELECT points, players, SUM(players) OVER (ORDER BY points DESC) AS upto,
           SUM(players) OVER () AS total, SUM(waiting) OVER () AS waiting
    FROM sums
), start AS (
    SELECT points, players, upto, total, waiting FROM running ORDER BY upto > %(offset)s DESC, points DESC LIMIT 1
), page AS (
    SELECT user_id, points, country FROM {total}
    WHERE period = %(period)s AND starts_on = %(starts_on)s {in_country} AND listed AND points > 0
        AND points <= (SELECT points FROM start WHERE upto > %(offset)s)
    ORDER BY points DESC, user_id
    LIMIT %(limit)s OFFSET COALESCE((SELECT %(offset)s - (upto - players) FROM start WHERE upto > %(offset)s), 0)
), own AS (
    SELECT points, country, listed,
           (SELECT COALESCE(SUM(players), 0) FROM sums WHERE sums.points > mine.points) AS above
    FROM {total} AS mine
    WHERE period = %(period)s AND starts_on = %(starts_on)s {in_country} AND user_id = %(viewer)s AND points > 0
)
SELECT 'start', CAST(NULL AS INTEGER), points, '', upto - players, players, total, waiting, upto FROM start
UNION ALL SELECT 'row', user_id, points, country, 0, 0, 0, 0, 0 FROM page
UNION ALL SELECT 'own', CASE WHEN listed THEN 1 ELSE 0 END, points, country, above, 0, 0, 0, 0 FROM own
"""


@dataclass
class Start:
    """Where a page starts on a board, read from its tallies: the competition ranking's arithmetic."""

    total: int  # listed players on the board
    waiting: int  # tally changes not folded yet (a read folds them past FOLD_ABOVE)
    points: int | None  # the points of the page's first row (None: the page is past the end)
    above: int = 0  # players with more points than that
    tied: int = 0  # players with exactly that many (some may be on the page before)

    def position(self, points: int, page_points: list[int]) -> int:
        """The position of a row of this page with `points`: one more than the players with more. Every
        player between it and the page's first value is on the page (`page_points`, most first)."""
        if points == self.points:
            return self.above + 1
        # A page with rows starts at a row: `points` is set.
        return self.above + self.tied + 1 + sum(1 for p in page_points if points < p < cast(int, self.points))


@dataclass
class Read:
    """What `_read` found: where the page starts, its rows (user, points, country) and the viewer's
    (points, country, listed, players above) if they are on the board."""

    start: Start
    entries: list[tuple[int, int, str]]
    own: tuple[int, str, bool, int] | None


def _read(period: str, country: str, offset: int, limit: int, viewer_pk: int | None) -> Read:
    """A board's page and the viewer's row, positions and points in one snapshot (one statement)."""
    sql = _BOARD_SQL.format(
        tally=BoardTally._meta.db_table,
        total=RankPointTotal._meta.db_table,
        in_country="AND country = %(country)s" if country else "",
    )
    params: dict[str, Any] = {
        "period": period,
        "starts_on": period_starts(timezone.localdate())[period],
        "country": country,
        "offset": offset,
        "limit": limit,
        "viewer": viewer_pk,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    start, entries, own = Start(0, 0, None), [], None
    for kind, number, points, row_country, a, b, total, waiting, upto in found:
        if kind == "start":
            crossed = int(upto) > offset
            start = Start(int(total), int(waiting), points if crossed else None, int(a), int(b))
        elif kind == "row":
            entries.append((number, points, row_country))
        else:
            own = (points, row_country, bool(number), int(a))
    entries.sort(key=lambda entry: (-entry[1], entry[0]))
    return Read(start, entries if start.points is not None else [], own)


def _fold_if_due(period: str, country: str, start: Start) -> None:
    """After a read: fold a board's tallies once many changes wait."""
    if start.waiting > FOLD_ABOVE:
        fold_tallies_safely(period, period_starts(timezone.localdate())[period], country)


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

    Two queries whatever the page and the number of players: the board (its tallies, the page's rows
    from an index and the viewer's own row, in one statement: positions and points always agree), and
    the page's players (names and avatars).
    """
    if period not in LEADERBOARD_PERIODS:
        raise BadLeaderboardRequest(_("There is no such leaderboard."))
    signed_in = viewer is not None and getattr(viewer, "is_authenticated", False)
    offset = (page - 1) * PAGE_SIZE
    read = _read(period, country, offset, PAGE_SIZE, viewer.pk if signed_in else None)
    _fold_if_due(period, country, read.start)
    pages = max(1, -(-read.start.total // PAGE_SIZE))
    if page > pages:
        raise BadLeaderboardRequest(
            _("There is no page %(page)s: this leaderboard has %(pages)s.") % {"page": page, "pages": pages}
        )
    rows = _rows(read, viewer)
    mine = None
    if read.own is not None:
        # Your own position counts the listed players above you, even while you are hidden.
        points, own_country, own_listed, players_above = read.own
        mine = BoardRow(
            players_above + 1,
            viewer.pk,
            viewer.username,
            own_country,
            points,
            me=True,
            listed=own_listed,
            on_page=any(r.me for r in rows),
        )
    return {
        "period": period,
        "country": country,
        "page": page,
        "pages": pages,
        "total": read.start.total,
        "rows": rows,
        "mine": mine,
        "has_previous": page > 1,
        "has_next": page < pages,
    }


def _rows(read: Read, viewer) -> list[BoardRow]:
    """The page's rows with their players' names and avatars, each with its position."""
    users = {
        u.pk: u
        for u in get_user_model()
        .objects.filter(pk__in=[user_id for user_id, _p, _c in read.entries])
        .select_related("profile", "player_stats")
        .only("username", "profile__avatar", "player_stats__counters")
    }
    me = getattr(viewer, "pk", None)
    page_points = [points for _u, points, _c in read.entries]
    rows = []
    for user_id, points, country in read.entries:
        user = users.get(user_id)
        if user is None:
            continue  # deleted between the two reads
        profile = getattr(user, "profile", None)
        rows.append(
            BoardRow(
                read.start.position(points, page_points),
                user_id,
                user.username,
                country,
                points,
                profile.avatar_url if profile is not None else None,
                me is not None and user_id == me,
                level=level_of_user(user),
            )
        )
    return rows


def level_reached_in(user, reference: str, *, played: bool) -> int | None:
    """The level a match (`reference`, "match:<public id>") took the player up to, or None.

    Shown on that match's result (issue 33). Only for the player's latest counted match: the level
    before it is the experience now less what that match gave, which no longer holds once another
    match has been counted (an older result then shows no level-up, rather than a wrong one).
    """
    latest = CountedMatch.objects.filter(user=user).order_by("-finished_at", "-id").values_list("reference", "won")
    last = latest.first()
    if last is None or last[0] != reference:
        return None
    stats = PlayerStats.objects.filter(user=user).first()
    xp = levels.experience(stats.counters) if stats is not None else 0
    gained = levels.match_experience(won=last[1], played=played)
    before, now = levels.level_of(xp - gained), levels.level_of(xp)
    return now if now > before else None


def level_of_user(user) -> int:
    """The level of a user read with `select_related("player_stats")` (1 before their first counted match):
    no query of its own."""
    try:
        counters = user.player_stats.counters
    except PlayerStats.DoesNotExist:
        return 1
    return levels.level_of(levels.experience(counters))


def top_of_leaderboard(limit: int = 5) -> list[dict]:
    """The home page's top of the all-time leaderboard: [{"position", "name", "url", "points"}] (two
    queries: the board, its players)."""
    read = _read("all", "", 0, limit, None)
    _fold_if_due("all", "", read.start)
    return [
        {
            "position": r.position,
            "name": r.name,
            "url": reverse("accounts:public_profile", args=[r.name]),
            "points": r.points,
        }
        for r in _rows(read, None)
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
