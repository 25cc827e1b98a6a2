"""The wallet's history says why each line happened in words: every reason the code writes has a label."""

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from shop import wallet
from shop.models import LEDGER_REASONS

APPS = ("accounts", "games", "rooms", "shop", "stats", "truco_site")


def reasons_written_by_the_code() -> set[str]:
    """Every literal `reason=` passed to `change_balance` in the project's code (tests excluded)."""
    found: set = set()
    for app in APPS:
        for path in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if name != "change_balance":
                    continue
                for keyword in node.keywords:
                    if keyword.arg == "reason" and isinstance(keyword.value, ast.Constant):
                        found.add(keyword.value.value)
    return found


def test_every_reason_the_code_writes_has_a_label():
    written = reasons_written_by_the_code()
    assert {"match_reward", "tournament_reward", "purchase", "starter_grant"} <= written  # the scan sees them
    assert written - set(LEDGER_REASONS) == set()


@pytest.mark.django_db
def test_wallet_history_shows_words_not_codes_in_both_languages(signed_in_client, user):
    wallet.change_balance(user, wallet.COINS, 15, reason="match_reward")
    wallet.change_balance(user, wallet.COINS, 150, reason="tournament_reward")
    wallet.change_balance(user, wallet.COINS, 1, reason="something_new")
    pt = signed_in_client.get(reverse("shop:wallet"), HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    en = signed_in_client.get(reverse("shop:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    body = pt.split("<tbody>")[1]
    assert "Prêmio de partida" in body and "Prêmio de torneio" in body and "Presente de boas-vindas" in body
    assert ">Outro<" in body.replace("\n", "").replace("  ", "")
    assert "Match reward" in en and "Tournament prize" in en
    for code in ("match_reward", "tournament_reward", "something_new", "starter_grant"):
        assert f">{code}<" not in body and code + "</td>" not in body
