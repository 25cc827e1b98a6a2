"""Shop URLs, mounted at /shop/ (namespace "shop")."""

from django.urls import path

from . import views

app_name = "shop"

urlpatterns = [
    path("", views.shop_index, name="index"),
    path("items/", views.inventory_page, name="inventory"),
    path("items/equip/", views.equip_item, name="equip"),
    path("wallet/", views.wallet_page, name="wallet"),
    path("purchases/<int:pk>/", views.purchase_result, name="purchase"),
    path("payments/stripe/webhook/", views.stripe_webhook, name="stripe_webhook"),
    path("item/<slug:slug>/", views.item_detail, name="item"),
    path("item/<slug:slug>/buy/", views.buy_item, name="buy"),
]
