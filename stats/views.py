"""Statistics, achievements and leaderboard pages (thin: the reads are stats.selectors)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from . import selectors


@require_GET
def statistics(request):
    if not request.user.is_authenticated:
        return render(request, "stats/statistics.html", {"anonymous": True})
    return render(request, "stats/statistics.html", selectors.statistics_page(request.user))


@login_required
@require_GET
def achievements(request):
    rows = selectors.achievements_page(request.user)
    earned = sum(1 for r in rows if r.earned_at is not None)
    return render(request, "stats/achievements.html", {"rows": rows, "earned": earned, "total": len(rows)})


@require_GET
def leaderboards(request):
    period = request.GET.get("period") or "all"
    try:
        page = selectors.parse_page(request.GET.get("page"))
        country = selectors.parse_country(request.GET.get("country"))
        board = selectors.leaderboard(period, country=country, page=page, viewer=request.user)
    except selectors.BadLeaderboardRequest as bad:
        context = {
            "error": bad.message,
            "period": "all",
            "country": "",
            "country_options": selectors.country_options(""),
        }
        return render(request, "stats/leaderboards.html", context, status=404)
    board["country_options"] = selectors.country_options(board["country"])
    return render(request, "stats/leaderboards.html", board)
