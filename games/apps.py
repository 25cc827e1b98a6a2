from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from games import receivers  # noqa: F401
        from games.records import all_records
        from stats.services import register_record_source

        # The statistics rebuild reads the stored matches through this (stats never imports games).
        register_record_source(all_records)
