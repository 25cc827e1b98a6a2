"""The shop app: wallet, catalogue, purchases, inventory and the payment providers."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ShopConfig(AppConfig):
    name = "shop"
    verbose_name = _("Shop")

    def ready(self):
        from . import receivers  # noqa: F401  (starter grant, personal-data export and deletion)
