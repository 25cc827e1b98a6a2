"""Money moves only through `shop.wallet.change_balance`: no other module of the project writes a
balance or a ledger line. A check on the source (every module, migrations included), so a new
path for money fails here before it ships; docs/architecture.md says what it cannot see."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("accounts", "devtools", "games", "rooms", "shop", "stats", "truco_site")
THE_WALLET = ROOT / "shop" / "wallet.py"
BALANCES = frozenset({"coins", "blue_coins", "gems"})
ORM_WRITES = frozenset({"create", "update", "get_or_create", "update_or_create", "bulk_create", "bulk_update"})
MONEY_MODELS = frozenset({"Wallet", "LedgerEntry"})


def _names_in(node: ast.AST) -> set[str]:
    """Every name and attribute name in an expression: `Wallet.objects.filter(...)` -> Wallet, objects, filter."""
    names = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            names.add(part.id)
        elif isinstance(part, ast.Attribute):
            names.add(part.attr)
    return names


def _strings_in(node: ast.AST) -> set[str]:
    return {part.value for part in ast.walk(node) if isinstance(part, ast.Constant) and isinstance(part.value, str)}


def money_writes(source: str) -> list[str]:
    """What in this source writes a balance or a ledger line, one description each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", "?")
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and part.attr in BALANCES:
                        found.append(f"line {line}: assigns .{part.attr}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        receiver = _names_in(func.value) if isinstance(func, ast.Attribute) else set()
        keywords = {kw.arg for kw in node.keywords}
        if name == "setattr" and len(node.args) > 1:
            attribute = node.args[1]
            if not isinstance(attribute, ast.Constant) or attribute.value in BALANCES:
                found.append(f"line {line}: setattr of a balance (or of an attribute it cannot name)")
        if name in MONEY_MODELS and (keywords & BALANCES or name == "LedgerEntry"):
            found.append(f"line {line}: builds a {name} row")
        if name in ORM_WRITES and receiver & MONEY_MODELS:
            if "LedgerEntry" in receiver and name != "update":
                found.append(f"line {line}: writes a ledger line with .{name}()")
            if None in keywords or _strings_in(node) & BALANCES:  # update(**{currency: ...}), bulk_update([..])
                found.append(f"line {line}: writes a balance with .{name}()")
        # Any queryset or manager (`queryset.update(coins=0)` in an admin action) and `save()` of named fields.
        if name in ORM_WRITES and keywords & BALANCES:
            found.append(f"line {line}: writes a balance with .{name}()")
        if name == "save" and "update_fields" in keywords and _strings_in(node) & BALANCES:
            found.append(f"line {line}: saves a balance field")
        for text in _strings_in(node):
            sql = text.lower()
            if ("shop_wallet" in sql or "shop_ledgerentry" in sql) and any(w in sql for w in ("update", "insert")):
                found.append(f"line {line}: SQL writing the wallet tables")
    return found


def project_modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if p != THE_WALLET)


def test_no_module_but_the_wallet_writes_a_balance_or_a_ledger_line():
    offenders = {}
    for path in project_modules():
        writes = money_writes(path.read_text())
        if writes:
            offenders[str(path.relative_to(ROOT))] = writes
    assert offenders == {}, "money moves only through shop.wallet.change_balance"


def test_the_wallet_itself_is_seen_writing_balances_and_ledger_lines():
    # The scan must be able to fail: the one module allowed to write money does write it.
    writes = money_writes(THE_WALLET.read_text())
    assert any("setattr" in w for w in writes)
    assert any("ledger line" in w for w in writes)


@pytest.mark.parametrize(
    "source",
    [
        "wallet.coins += 10",
        "w.gems = 0",
        "setattr(wallet, 'blue_coins', 3)",
        "setattr(wallet, currency, 3)",
        "Wallet.objects.filter(user=u).update(coins=F('coins') + 1)",
        "queryset.update(gems=0)",
        "Wallet.objects.filter(user=u).update(**{currency: 5})",
        "Wallet.objects.create(user=u, gems=50)",
        "Wallet(user=u, coins=9).save()",
        "Wallet.objects.update_or_create(user=u, defaults={'coins': 1})",
        "Wallet.objects.bulk_update(wallets, ['coins'])",
        "LedgerEntry.objects.create(wallet=w, amount=5, currency='coins')",
        "LedgerEntry.objects.bulk_create(lines)",
        "LedgerEntry(wallet=w, amount=5)",
        "wallet.save(update_fields=['coins'])",
        "cursor.execute('UPDATE shop_wallet SET coins = coins + 1')",
    ],
)
def test_each_way_of_writing_money_is_seen(source):
    assert money_writes(source)


@pytest.mark.parametrize(
    "source",
    [
        "balances = {'coins': wallet.coins, 'gems': wallet.gems}",  # reading
        "LedgerEntry.objects.filter(wallet__user=user).update(wallet=None, note='')",  # forgetting a person
        "Wallet.objects.filter(user=user).delete()",  # with the account
        "wallet.change_balance(user, wallet.COINS, 15, reason='match_reward')",  # the one way
    ],
)
def test_reads_and_the_wallet_function_are_not_money_writes(source):
    assert money_writes(source) == []


def test_every_app_of_the_project_is_scanned():
    # A new app (rooms came this way) must not slip past the scan: every package with an apps.py is listed.
    apps = {p.parent.name for p in ROOT.glob("*/apps.py")}
    assert apps <= set(PACKAGES), f"add {sorted(apps - set(PACKAGES))} to PACKAGES"
