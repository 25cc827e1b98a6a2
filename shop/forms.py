"""Forms: the purchase confirmation (carrying its idempotency key) and the admin adjustment."""

import uuid

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from .models import Currency


class ConfirmPurchaseForm(forms.Form):
    # Generated when the confirm page renders: resubmitting the same form is the same purchase.
    token = forms.CharField(widget=forms.HiddenInput, max_length=64, validators=[RegexValidator(r"^[0-9a-f-]{16,64}$")])

    @classmethod
    def fresh(cls) -> "ConfirmPurchaseForm":
        return cls(initial={"token": uuid.uuid4().hex})


class EquipForm(forms.Form):
    item = forms.SlugField()


# One adjustment moves at most this much of a currency, either way: far above any real
# compensation, and far below the 64-bit balance column (a typo of 20 nines was a 500).
MAX_ADJUSTMENT = 1_000_000


class WalletAdjustmentForm(forms.Form):
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices)
    amount = forms.IntegerField(
        label=_("Amount"),
        help_text=_("Positive to credit, negative to debit."),
        min_value=-MAX_ADJUSTMENT,
        max_value=MAX_ADJUSTMENT,
    )
    reason = forms.CharField(label=_("Reason"), max_length=300, help_text=_("Written to the ledger with your name."))

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("The amount cannot be zero."))
        return amount
