from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = _("Statistics")

    def ready(self):
        from . import receivers  # noqa: F401
