"""Profile, public profile, friends, privacy policy, personal-data export and account deletion pages."""

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from . import friends, services
from .forms import DeleteAccountForm, ProfileForm
from .models import Profile, User
from .signals import profile_sections_requested


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request):
    profile, _created = Profile.objects.get_or_create(user=request.user)
    initial = {
        "display_name": request.user.username,
        "country": profile.country.code or "",
        "public_stats": profile.public_stats,
        "table_chat": profile.table_chat,
        "show_whereabouts": profile.show_whereabouts,
    }
    form = ProfileForm(request.POST or None, initial=initial, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_profile(
                request.user,
                display_name=form.cleaned_data["display_name"],
                country=form.cleaned_data["country"] or "",
                public_stats=form.cleaned_data["public_stats"],
                table_chat=form.cleaned_data["table_chat"],
                show_whereabouts=form.cleaned_data["show_whereabouts"],
            )
        except ValidationError as taken:
            form.add_error("display_name", taken)
        else:
            messages.success(request, _("Your profile was saved."))
            return redirect("accounts:profile")
    return render(request, "accounts/profile_edit.html", {"form": form, "profile": profile})


def public_profile(request, display_name: str):
    player = get_object_or_404(User.objects.select_related("profile"), username__iexact=display_name, is_active=True)
    profile, _created = Profile.objects.get_or_create(user=player)
    sections = [
        html
        for _receiver, html in profile_sections_requested.send(
            sender=User, request=request, player=player, profile=profile
        )
        if html
    ]
    relation = friends.relation(request.user, player) if request.user.is_authenticated else None
    return render(
        request,
        "accounts/public_profile.html",
        {"player": player, "profile": profile, "sections": sections, "relation": relation},
    )


@login_required
def friends_page(request):
    return render(request, "accounts/friends.html", friends.friends_page(request.user))


# What each friends form does with the person's name, and what it says when done (`request`: its own words).
FRIEND_ACTIONS = {
    "remove": (friends.remove_friend, gettext_lazy("%(name)s is no longer your friend.")),
    "block": (friends.block, gettext_lazy("You blocked %(name)s: nothing of theirs reaches you now.")),
    "unblock": (friends.unblock, gettext_lazy("You unblocked %(name)s.")),
}


@login_required
@require_http_methods(["POST"])
def friend_action(request, action: str):
    """A friends form's POST (from the friends page or a profile): do it, say so, go back where it came from."""
    name = request.POST.get("name", "").strip()
    try:
        if action == "request":
            made_friends = friends.send_request(request.user, name) == "friends"
            done = _("You and %(name)s are friends now.") if made_friends else _("Friend request sent.")
            messages.success(request, done % {"name": name})
        elif action == "accept":
            friend = friends.accept(request.user, request.POST.get("request"))
            messages.success(request, _("You and %(name)s are friends now.") % {"name": friend.username})
        elif action in ("decline", "withdraw"):
            answer = friends.decline if action == "decline" else friends.withdraw
            answer(request.user, request.POST.get("request"))
        elif action in FRIEND_ACTIONS:
            service, said = FRIEND_ACTIONS[action]
            service(request.user, name)
            messages.success(request, str(said) % {"name": name})
        else:
            messages.error(request, _("That is not something you can do with friends."))
    except friends.FriendRefused as refusal:
        messages.error(request, str(refusal.message))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    return redirect(back or "accounts:friends")


def privacy_policy(request):
    return render(request, "accounts/privacy.html")


@login_required
def export_data(request):
    data = services.export_personal_data(request.user)
    stamp = timezone.now().strftime("%Y%m%d")
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="truco-my-data-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request):
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        services.delete_account(user)
        messages.success(request, _("Your account and all your data were deleted."))
        return redirect("home")
    return render(request, "accounts/delete_account.html", {"form": form})
