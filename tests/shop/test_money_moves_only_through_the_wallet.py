"""Money moves only through `shop.wallet.change_balance`: no other module of the project writes a
balance or a ledger line. A check on the source (every module, migrations included), so a new
path for money fails here before it ships; docs/architecture.md says what it cannot see.

And the words of every change come from the money policy, `shop/money.py` (issue 29): outside it,
no `change_balance` call writes its reason, reference or idempotency key by hand (each must visibly
come from `shop.money`), and no code builds a string shaped like one of its idempotency keys."""

import ast
from pathlib import Path

import pytest

from shop import money

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("accounts", "devtools", "games", "rooms", "shop", "stats", "truco_site")
THE_WALLET = ROOT / "shop" / "wallet.py"
THE_POLICY = ROOT / "shop" / "money.py"
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


# --- The words of a change come from shop.money -------------------------------------------------

# What a `change_balance` call says about the change; `note` is staff's free text.
LEDGER_WORDS = ("reason", "reference", "idempotency_key")


def _shape(text: ast.JoinedStr) -> tuple[str | None, ...]:
    """An f-string's literal parts, None for each value put in.

    f"stake-hold:{m}:{n}" -> ("stake-hold:", None, ":", None)."""
    return tuple(str(part.value) if isinstance(part, ast.Constant) else None for part in text.values)


def key_shapes() -> dict[tuple[str | None, ...], str]:
    """The shape of every idempotency key the policy builds (its `*_key` functions), and the builder's name."""
    shapes = {}
    for node in ast.parse(THE_POLICY.read_text()).body:
        if isinstance(node, ast.FunctionDef) and node.name.endswith("_key"):
            for part in ast.walk(node):
                if isinstance(part, ast.Return) and isinstance(part.value, ast.JoinedStr):
                    shapes[_shape(part.value)] = node.name
    return shapes


KEY_SHAPES = key_shapes()


def _absolute(module: str, level: int, package: str) -> str:
    """The module an import names, relative imports resolved against the importing module's package."""
    if not level:
        return module
    base = package.split(".")[: len(package.split(".")) - (level - 1)] if package else []
    return ".".join([*base, *([module] if module else [])])


def _policy_names(tree: ast.AST, package: str) -> set[str]:
    """The names a module binds to shop.money or to something in it (`money`, `Reason`, ...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = _absolute(node.module or "", node.level, package)
            for alias in node.names:
                if (module == "shop" and alias.name == "money") or module == "shop.money":
                    names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            names.update(alias.asname for alias in node.names if alias.name == "shop.money" and alias.asname)
    return names


def _from_policy(value: ast.AST, policy: set[str]) -> bool:
    """The expression visibly takes something from shop.money (`money.Reason.X`, `money.stake_hold_key(...)`)."""
    for part in ast.walk(value):
        if isinstance(part, ast.Name) and part.id in policy:
            return True
        if isinstance(part, ast.Attribute) and part.attr == "money" and isinstance(part.value, ast.Name):
            if part.value.id == "shop":  # import shop.money; shop.money.Reason.X
                return True
    return False


def _has_literal(value: ast.AST) -> bool:
    return any(
        isinstance(part, ast.JoinedStr) or (isinstance(part, ast.Constant) and isinstance(part.value, str))
        for part in ast.walk(value)
    )


def hand_built_ledger_words(source: str, *, package: str = "") -> list[str]:
    """Where this source (a module of `package`) writes a ledger reason, reference or key by hand, one line each."""
    tree = ast.parse(source)
    policy = _policy_names(tree, package)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", "?")
        if isinstance(node, ast.JoinedStr) and _shape(node) in KEY_SHAPES:
            found.append(f"line {line}: builds a key shaped like shop.money.{KEY_SHAPES[_shape(node)]}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name != "change_balance":
            continue
        for keyword in node.keywords:
            if keyword.arg is None:
                found.append(f"line {line}: **kwargs to change_balance (its reason cannot be seen)")
            elif keyword.arg in LEDGER_WORDS:
                value = keyword.value
                if _has_literal(value):
                    found.append(f"line {line}: a hand-written {keyword.arg} (name it in shop.money)")
                elif not (isinstance(value, ast.Constant) and value.value is None) and not _from_policy(value, policy):
                    found.append(f"line {line}: a {keyword.arg} not taken from shop.money")
    return found


def test_no_module_but_the_policy_writes_a_reason_reference_or_key_by_hand():
    # Migrations are history: they keep the strings of their day and import no live code.
    offenders = {}
    for path in project_modules():
        if path == THE_POLICY or "migrations" in path.relative_to(ROOT).parts:
            continue
        package = ".".join(path.relative_to(ROOT).parent.parts)
        words = hand_built_ledger_words(path.read_text(), package=package)
        if words:
            offenders[str(path.relative_to(ROOT))] = words
    assert offenders == {}, "reasons, references and idempotency keys come from shop.money"


def test_the_scan_knows_every_key_the_policy_builds():
    # The shapes are read off shop/money.py: a key builder the scan could not read would guard nothing.
    builders = {name for name in dir(money) if name.endswith("_key") and callable(getattr(money, name))}
    assert set(KEY_SHAPES.values()) == builders
    assert KEY_SHAPES[("stake-hold:", None, ":", None)] == "stake_hold_key"


def test_the_policy_itself_is_seen_building_keys():
    # The scan must be able to fail: the one module allowed to build keys does build them.
    assert len(hand_built_ledger_words(THE_POLICY.read_text(), package="shop")) >= len(KEY_SHAPES)


@pytest.mark.parametrize(
    "source",
    [
        'wallet.change_balance(user, currency=wallet.COINS, amount=15, reason="match_reward")',
        "wallet.change_balance(user, wallet.COINS, 15, reason='match_reward')",
        'change_balance(u, currency=c, amount=1, reason="stake_won" if won else money.Reason.STAKE_RETURNED)',
        'change_balance(u, currency=c, amount=1, reason=money.Reason("house_cut"))',
        "change_balance(u, currency=c, amount=1, reason=why)",  # a name that is not visibly the policy's
        "change_balance(u, currency=c, amount=1, reason=Reason.PACK)",  # a Reason that is not shop.money's
        'change_balance(u, currency=c, amount=1, reason=money.Reason.PACK, reference=f"purchase:{pk}")',
        'change_balance(u, currency=c, amount=1, reason=money.Reason.PACK, reference="admin")',
        'change_balance(u, currency=c, amount=1, reason=money.Reason.PACK, idempotency_key=f"purchase:{pk}:grant")',
        "change_balance(u, currency=c, amount=1, reason=money.Reason.PACK, idempotency_key=key)",
        "change_balance(u, **words)",
        'key = f"stake-hold:{match.public_id}:{seat.number}"',  # built first, passed later
        'options = {"idempotency_key": f"truco-purchase-{purchase.pk}"}',
        'seen = LedgerEntry.objects.filter(idempotency_key=f"room-entry:{seat.pk}").exists()',
    ],
)
def test_each_hand_built_reason_reference_or_key_is_seen(source):
    assert hand_built_ledger_words("from shop import money, wallet\n" + source, package="games.match")


@pytest.mark.parametrize(
    ("source", "package"),
    [
        (
            "from shop import money, wallet\n"
            "wallet.change_balance(seat.user, currency=wallet.COINS, amount=coins, reason=money.Reason.MATCH_REWARD,"
            " reference=money.match_reference(m.public_id),"
            " idempotency_key=money.match_reward_key(m.public_id, seat=1))",
            "games.match",
        ),
        (
            "from shop import money, wallet\n"
            "wallet.change_balance(u, currency=c, amount=1,"
            " reason=money.Reason.STAKE_RETURNED if back else money.Reason.STAKE_WON, idempotency_key=None)",
            "games.match",
        ),
        (
            "from . import money, wallet\n"
            "wallet.change_balance(u, currency=c, amount=n, reason=money.Reason.ADMIN_ADJUSTMENT, note='goodwill')",
            "shop",
        ),
        ("from .money import Reason\nchange_balance(u, currency=c, amount=n, reason=Reason.PACK)", "shop"),
        ("import shop.money\nchange_balance(u, currency=c, amount=n, reason=shop.money.Reason.PACK)", "rooms"),
        # stats' own references and rank-point reasons are not ledger words
        ('reference = f"match:{match.public_id}"', "games"),
        ('award_rank_points(user, 3, reason="match_reward", reference=reference)', "games.match"),
    ],
)
def test_words_taken_from_the_policy_are_not_hand_built(source, package):
    assert hand_built_ledger_words(source, package=package) == []


def test_every_app_of_the_project_is_scanned():
    # A new app (rooms came this way) must not slip past the scan: every package with an apps.py is listed.
    apps = {p.parent.name for p in ROOT.glob("*/apps.py")}
    assert apps <= set(PACKAGES), f"add {sorted(apps - set(PACKAGES))} to PACKAGES"
