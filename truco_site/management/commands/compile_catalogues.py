"""Compile every .po catalogue to .mo in pure Python (polib), so `make run` needs no gettext."""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogue_paths() -> list[Path]:
    roots = [settings.BASE_DIR / "locale"] + [
        settings.BASE_DIR / app / "locale" for app in ("accounts", "games", "rooms", "shop", "stats", "truco_site")
    ]
    return sorted(po for root in roots if root.exists() for po in root.rglob("*.po"))


class Command(BaseCommand):
    help = "Compile the project's .po translation catalogues to .mo without gettext."

    def handle(self, *args, **options):
        for po_path in catalogue_paths():
            mo_path = po_path.with_suffix(".mo")
            if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                continue
            polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
            self.stdout.write(f"compiled {po_path.relative_to(settings.BASE_DIR)}")
