"""The money policy (shop/money.py): the reasons and their words, the idempotency keys stored rows
hold, and whether a person covers an amount. The wallet refuses a reason the policy does not name."""

import pytest
from django.utils import translation

from shop import money, wallet
from shop.models import LedgerEntry, Wallet

# The codes stored in ledger lines: existing rows and pages read them, so none may change.
STORED_REASONS = {
    "STARTER_GRANT": "starter_grant",
    "ADMIN_ADJUSTMENT": "admin_adjustment",
    "MATCH_REWARD": "match_reward",
    "TOURNAMENT_REWARD": "tournament_reward",
    "ACHIEVEMENT_REWARD": "achievement_reward",
    "PURCHASE": "purchase",
    "PACK": "pack",
    "ROOM_ENTRY": "room_entry",
    "ROOM_REFUND": "room_refund",
    "STAKE_HELD": "stake_held",
    "STAKE_WON": "stake_won",
    "STAKE_RETURNED": "stake_returned",
    "HOUSE_CUT": "house_cut",
}


def test_the_reasons_keep_the_codes_stored_in_ledger_lines():
    assert {reason.name: reason.value for reason in money.Reason} == STORED_REASONS
    assert money.REASONS == frozenset(STORED_REASONS.values())


@pytest.mark.parametrize("reason", list(money.Reason))
def test_every_reason_has_its_words_in_both_languages(reason):
    with translation.override("en"):
        english = money.reason_label(reason)
    with translation.override("pt-br"):
        portuguese = money.reason_label(reason)
    assert english and portuguese
    assert portuguese != english, f"{reason.value} has no Portuguese words"
    assert reason.value not in (english, portuguese)


def test_a_code_no_longer_named_reads_other():
    with translation.override("en"):
        assert money.reason_label("something_retired") == "Other"
    with translation.override("pt-br"):
        assert money.reason_label("something_retired") == "Outro"


def test_the_keys_of_stored_rows_never_change():
    # These exact strings are in ledger lines already: a key that changed would pay a reward twice.
    assert money.starter_grant_key("blue_coins") == "starter-grant:blue_coins"
    assert money.match_reward_key("Ab12Cd34", seat=3) == "match:Ab12Cd34:seat:3"
    assert money.tournament_reward_key("Tt99") == "tournament:Tt99"
    assert money.achievement_reward_key("first_win", user_id=42) == "achievement:first_win:user:42"
    assert money.purchase_payment_key(7) == "purchase:7:pay"
    assert money.pack_grant_key(7) == "purchase:7:grant"
    assert money.stripe_checkout_key(7) == "truco-purchase-7"
    assert money.room_entry_key(15) == "room-entry:15"
    assert money.room_refund_key(15) == "room-refund:15"
    assert money.stake_hold_key("Ab12Cd34", seat=0) == "stake-hold:Ab12Cd34:0"
    assert money.stake_pay_key("Ab12Cd34", seat=2) == "stake-pay:Ab12Cd34:2"
    assert money.house_cut_key("Ab12Cd34") == "stake-house:Ab12Cd34"


def test_the_references_of_ledger_lines_never_change():
    assert money.match_reference("Ab12Cd34") == "match:Ab12Cd34"
    assert money.tournament_reference("Tt99") == "tournament:Tt99"
    assert money.achievement_reference("first_win") == "achievement:first_win"
    assert money.room_reference("k3y") == "room:k3y"
    assert money.purchase_reference(7) == "purchase:7"
    assert money.ADMIN_REFERENCE == "admin"


def test_key_builders_take_keywords_past_the_first_argument():
    with pytest.raises(TypeError):
        money.stake_hold_key("Ab12Cd34", 0)
    with pytest.raises(TypeError):
        money.coverage(object(), money.COINS)


@pytest.mark.django_db
def test_the_wallet_refuses_a_reason_the_policy_does_not_name(user):
    before = wallet.balance(user, currency=wallet.COINS)
    lines = LedgerEntry.objects.count()
    with pytest.raises(ValueError, match="shop.money.Reason"):
        wallet.change_balance(user, currency=wallet.COINS, amount=5, reason="bonus_from_nowhere")
    assert wallet.balance(user, currency=wallet.COINS) == before
    assert LedgerEntry.objects.count() == lines


@pytest.mark.django_db
def test_the_wallet_stores_the_reasons_code(user):
    entry = wallet.change_balance(user, currency=wallet.COINS, amount=5, reason=money.Reason.STAKE_WON)
    entry.refresh_from_db()
    assert entry.reason == "stake_won" and type(entry.reason) is str


@pytest.mark.django_db
def test_a_person_covers_up_to_their_balance_and_no_more(user, top_up):
    have = wallet.balance(user, currency=wallet.COINS)
    coins = money.coverage(user)
    assert (coins.currency, coins.available, coins.largest) == (wallet.COINS, have, have)
    assert coins.covers(have) and coins.covers(0)
    assert not coins.covers(have + 1)
    top_up(user, wallet.COINS, 1)
    assert money.coverage(user).covers(have + 1)  # read again, never kept


@pytest.mark.django_db
def test_coverage_is_per_currency(user, top_up):
    wallet.change_balance(
        user,
        currency=wallet.BLUE_COINS,
        amount=-wallet.balance(user, currency=wallet.BLUE_COINS),
        reason=money.Reason.ROOM_ENTRY,
    )
    top_up(user, wallet.GEMS, 3)
    assert not money.coverage(user, currency=money.BLUE_COINS).covers(1)
    assert money.coverage(user, currency=money.GEMS).covers(3)
    assert money.coverage(user, currency=money.COINS).covers(1)


@pytest.mark.django_db
def test_a_person_without_a_wallet_covers_nothing_but_zero(make_user):
    person = make_user()
    Wallet.objects.filter(user=person).delete()
    assert money.coverage(person).available == 0
    assert money.coverage(person).covers(0) and not money.coverage(person).covers(1)


def test_an_unknown_currency_is_refused():
    with pytest.raises(ValueError):
        money.coverage(object(), currency="doubloons")
