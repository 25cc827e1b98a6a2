"""Portuguese (Brazil) and English: chosen from the browser, pt-BR by default, complete catalogues."""

from pathlib import Path

import polib
import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_default_language_is_brazilian_portuguese(client):
    html = client.get("/").content.decode()
    assert '<html lang="pt-br">' in html
    assert "Jogar agora" in html


def test_english_browser_gets_english(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="en">' in html
    assert "Play now" in html


def test_unsupported_browser_language_falls_back_to_portuguese(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE").content.decode()
    assert '<html lang="pt-br">' in html


def test_language_switch_sets_the_language(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get("/").content.decode()


def pt_br_catalogues():
    return sorted(Path(settings.BASE_DIR).glob("*/locale/pt_BR/LC_MESSAGES/django.po")) + sorted(
        Path(settings.BASE_DIR).glob("locale/pt_BR/LC_MESSAGES/django.po")
    )


@pytest.mark.parametrize("po_path", pt_br_catalogues(), ids=lambda p: str(p.parent.parent.parent.parent.name))
def test_every_message_has_a_portuguese_translation(po_path):
    catalogue = polib.pofile(str(po_path))
    untranslated = [e.msgid for e in catalogue if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
    assert untranslated == []


@pytest.mark.parametrize("section", ["play", "rooms", "shop", "stats", "leaderboards"])
def test_navigation_targets_answer_instead_of_404(client, section):
    assert client.get(f"/{section}/").status_code == 200
