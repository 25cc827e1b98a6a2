"""Shop pages: catalogue by category → item → confirm → result; inventory; wallet; Stripe webhook."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from . import inventory, purchases, selectors
from .checkout import check_out
from .forms import ConfirmPurchaseForm, EquipForm
from .models import Item, ItemKind
from .payments import PaymentUnavailable
from .payments.stripe_checkout import BadWebhook, handle_webhook


def shop_index(request):
    kind = request.GET.get("kind") or None
    if kind not in ItemKind.values:
        kind = None
    return render(
        request,
        "shop/index.html",
        {
            "sections": selectors.shop_sections(kind),
            "kinds": ItemKind.choices,
            "current_kind": kind,
            "owned_ids": selectors.owned_item_ids(request.user),
            "balances": selectors.balances(request.user),
        },
    )


def item_detail(request, slug):
    item = get_object_or_404(Item, slug=slug, is_active=True)
    return _render_item(request, item, ConfirmPurchaseForm.fresh())


def _render_item(request, item, form, status=200):
    owned = request.user.is_authenticated and inventory.owns(request.user, item)
    return render(
        request,
        "shop/item_detail.html",
        {
            "item": item,
            "form": form,
            "owned": owned,
            "on_sale": item.is_on_sale(),
            "balances": selectors.balances(request.user),
        },
        status=status,
    )


@login_required
@require_POST
def buy_item(request, slug):
    item = get_object_or_404(Item, slug=slug)
    form = ConfirmPurchaseForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest()
    try:
        checkout = check_out(
            request.user,
            item,
            idempotency_key=form.cleaned_data["token"],
            return_url=lambda purchase: request.build_absolute_uri(reverse("shop:purchase", args=[purchase.pk])),
            cancel_url=request.build_absolute_uri(item_url(item)),
        )
    except (purchases.PurchaseRefused, purchases.InsufficientFunds, PaymentUnavailable) as refusal:
        messages.error(request, refusal.message)
        return redirect(item_url(item))
    if checkout.redirect_url:
        return redirect(checkout.redirect_url)
    return redirect("shop:purchase", pk=checkout.purchase.pk)


def item_url(item) -> str:
    return reverse("shop:item", args=[item.slug])


@login_required
def purchase_result(request, pk):
    purchase = selectors.recent_purchase(request.user, pk)
    if purchase is None:
        raise Http404
    return render(
        request, "shop/purchase_result.html", {"purchase": purchase, "balances": selectors.balances(request.user)}
    )


@login_required
def inventory_page(request):
    return render(
        request,
        "shop/inventory.html",
        {
            "sections": selectors.inventory_sections(request.user),
            "equipped_ids": selectors.equipped_ids(request.user),
        },
    )


@login_required
@require_POST
def equip_item(request):
    form = EquipForm(request.POST)
    item = Item.objects.filter(slug=form.data.get("item", "")).first() if form.is_valid() else None
    try:
        if item is None:
            raise inventory.NotOwned()
        inventory.equip(request.user, item)
    except inventory.NotOwned as refusal:
        messages.error(request, refusal.message)
    return redirect("shop:inventory")


@login_required
def wallet_page(request):
    return render(
        request,
        "shop/wallet.html",
        {
            "balances": selectors.balances(request.user),
            "page": selectors.ledger_page(request.user, request.GET.get("page")),
        },
    )


@csrf_exempt
@require_POST
def stripe_webhook(request):
    # Authenticated by the Stripe-Signature HMAC instead of a CSRF token.
    try:
        handle_webhook(request.body, request.headers.get("Stripe-Signature"))
    except BadWebhook:
        return HttpResponseBadRequest("bad signature")
    return HttpResponse("ok")
