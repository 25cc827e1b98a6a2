"""Play page, the table page, tournaments. Thin: parse, call one service or selector, render."""

from __future__ import annotations

import secrets

from allauth.account.adapter import get_adapter as get_account_adapter
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors
from games.forms import PlayForm, last_options, remember_options
from games.match.limits import StartRefused, check_can_start, count_start
from games.match.presence import LeaveRefused, leave_match
from games.match.spectators import may_watch
from games.match.starting import create_match, seat_plans_against_ai
from games.match.tournaments import start_tournament
from games.models import Match, MatchAnalysis, Tournament
from games.seating import guest_tokens, remember_guest_seat, seat_for
from games.table import analysing, analysis_page, rendering
from games.table.publishing import publish_after_commit
from games.table.replay import finished_match_steps, replay_moves, replay_step_number
from shop.selectors import equipped_deck


@require_http_methods(["GET", "POST"])
def play(request):
    form = PlayForm(request.POST or None, initial=last_options(request.session))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["mode"] == "tournament" and not request.user.is_authenticated:
            messages.info(request, _("Sign in to play a tournament: its prize goes to your account."))
            return redirect_to_login(request.path)
        remember_options(request.session, form.data)  # the chosen table spelled out as variant and seats
        ip = client_address(request)
        try:
            check_can_start(user=request.user, guest_tokens=guest_tokens(request.session), ip=ip)
        except StartRefused as refused:
            messages.error(request, refused.message)
            return _play_page(request, form, status=429)
        count_start(ip)
        if data["mode"] == "tournament":
            tournament = start_tournament(request.user, data["rules"], move_seconds=data["move_seconds"])
            return redirect("games:table", public_id=selectors.current_match(tournament).public_id)
        if request.user.is_authenticated:
            plans = seat_plans_against_ai(data["rules"], data["bot_level"], user=request.user)
        else:
            token = secrets.token_urlsafe(16)
            remember_guest_seat(request.session, token)
            plans = seat_plans_against_ai(data["rules"], data["bot_level"], guest_token=token)
        match = create_match(
            rules=data["rules"],
            seats=plans,
            bot_level=data["bot_level"],
            move_seconds=data["move_seconds"],
            partner_signals=data["partner_signals"],
        )
        return redirect("games:table", public_id=match.public_id)
    return _play_page(request, form)


def client_address(request) -> str:
    """The address the start limit counts: allauth's reading (X-Forwarded-For behind `TRUSTED_PROXY_COUNT`
    proxies, else REMOTE_ADDR), the same one its sign-in limits count."""
    try:
        return get_account_adapter().get_client_ip(request)
    except (PermissionDenied, ImproperlyConfigured):
        return ""


def _play_page(request, form, status: int = 200):
    active = selectors.active_matches(request.user, guest_tokens(request.session))
    context = {"form": form, "active_matches": active, "rewards": selectors.reward_settings()}
    return render(request, "games/play.html", context, status=status)


def table(request, public_id: str):
    match = get_object_or_404(Match.objects.select_related("tournament"), public_id=public_id)
    seat = seat_for(match, request.user, request.session)
    if seat is None:
        if not may_watch(match, request.user):
            raise Http404(_("This is not your match."))
        # A spectator: the engine's spectator view (no hand, no face-down card), no buttons.
        context = rendering.page_context(match, selectors.seats_at(match), None, spectator=request.user)
        return render(request, "games/table.html", context)
    context = rendering.page_context(match, selectors.seats_at(match), seat.number)
    return render(request, "games/table.html", context)


@require_POST
def leave(request, public_id: str):
    """ "Leave match" (a room's match), confirmed on the table page: a robot plays the seat to the end."""
    match = get_object_or_404(Match, public_id=public_id)
    seat = seat_for(match, request.user, request.session)
    if seat is None:
        raise Http404(_("This is not your match."))
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Confirm that you want to leave the match."))
        return redirect("games:table", public_id=public_id)
    try:
        left = leave_match(public_id, seat.number)
    except LeaveRefused as refused:
        messages.error(request, refused.message)
        return redirect("games:table", public_id=public_id)
    # The other seats see the robot take over; the deadline in the row (a robot's short delay) is
    # met by the sweeper, as this request has no timers (docs/decisions.md, "Rooms, part 2").
    publish_after_commit(left)
    messages.success(request, _("You left the match. A robot plays your seat to the end."))
    return redirect("rooms:lobby")


@login_required
def tournament(request, public_id: str):
    tournament = get_object_or_404(Tournament, public_id=public_id, user=request.user)
    return render(
        request,
        "games/tournament.html",
        {
            "tournament": tournament,
            "stages": selectors.tournament_bracket(tournament),
            "rewards": selectors.reward_settings(),
        },
    )


@login_required
def history(request):
    page, rows = selectors.match_history(request.user, request.GET.get("page"))
    return render(request, "games/history.html", {"page": page, "rows": rows})


def replay(request, public_id: str):
    """A finished match step by step, for the people who sat at it (404 for anyone else): one step's board
    at a time (`?step=N`), drawn by the live table's fragments from the engine's view of that moment; the
    step buttons (and the arrow keys) swap the board in place."""
    match = get_object_or_404(Match, public_id=public_id)
    seat = seat_for(match, request.user, request.session)
    if seat is None:
        raise Http404(_("This is not your match."))
    if match.status != Match.Status.FINISHED:
        # Said plainly, with the way back to the table (an unfinished match has no replay).
        return render(request, "games/replay.html", {"match": match, "not_over": True}, status=404)
    seats = selectors.seats_at(match)
    steps = finished_match_steps(match, seats, seat.number)
    number = replay_step_number(request.GET.get("step"), len(steps))
    step = steps[number - 1] if steps else None
    board, deck = None, equipped_deck(request.user)
    if step is not None and step.view is not None:
        board = rendering.board_fragments(step.view, rendering.table_facts(match, seats, deck))
    context = {
        "match": match,
        "seats": seats,
        "step": step,
        "total": len(steps),
        "go": replay_moves([s.board.hand_number for s in steps], number),
        "board": board,
        "board_face": deck["face_style"],
        # My decision told at this step, if I had the match analysed, and the way to my other mistakes.
        "review": analysis_page.replay_marks(
            MatchAnalysis.objects.filter(match=match, seat=seat.number).first(), match.public_id, number
        ),
    }
    partial = request.headers.get("HX-Request") == "true"
    return render(request, "games/_replay_board.html" if partial else "games/replay.html", context)


@require_http_methods(["GET", "POST"])
def analysis(request, public_id: str):
    """The engine's review of my decisions in a finished match (issue 34), for the people who sat at it (404
    for anyone else): a POST asks for it (computed once per match and seat, off the table's loop); the page
    shows its progress live (`AnalysisConsumer`), then the summary and every decision."""
    match = get_object_or_404(Match, public_id=public_id)
    seat = seat_for(match, request.user, request.session)
    if seat is None:
        raise Http404(_("This is not your match."))
    if match.status != Match.Status.FINISHED or match.start_state is None:
        # Said plainly, with the way back (an unfinished match, or one stored before its actions were kept).
        return render(request, "games/analysis.html", {"match": match, "not_available": True}, status=404)
    if request.method == "POST":
        analysing.request(match, seat.number)
        return redirect("games:analysis", public_id=public_id)
    row, others = analysing.analyses_for(match, seat.number)
    context = {"match": match, "region": analysis_page.analysis_context(row, public_id, others)}
    return render(request, "games/analysis.html", context)
