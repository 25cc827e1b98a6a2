from django.apps import AppConfig


class TrucoSiteConfig(AppConfig):
    name = "truco_site"

    def ready(self):
        # Before any URL conf (HTTP or WebSocket) is imported: they use these converters.
        from . import converters

        converters.register()
