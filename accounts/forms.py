"""Forms of the profile pages, and allauth's sign-up form with one addition."""

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField

from .models import User, display_name_unavailable
from .names import canonical
from .validators import display_name_validators


class DisplayNameField(forms.CharField):
    """Normalised (NFKC) before the rules run: "Ａｄｍｉｎ" is checked, and stored, as "Admin"."""

    def to_python(self, value):
        value = super().to_python(value)
        return canonical(value) if value else value


class SignupForm(AllauthSignupForm):
    def try_save(self, request):
        # The name was free when the form was checked; a parallel sign-up may have taken it (or a
        # look-alike, or the email) since. The database refuses the second: say so, never a 500.
        try:
            with transaction.atomic():
                return super().try_save(request)
        except IntegrityError:
            messages.error(request, _("That display name or email address was taken a moment ago. Please try again."))
            return None, redirect(request.get_full_path())


class ProfileForm(forms.Form):
    display_name = DisplayNameField(label=_("Display name"), validators=display_name_validators)
    country = LazyTypedChoiceField(label=_("Country"), choices=[("", "—")] + list(countries), required=False)

    def __init__(self, *args, user: User, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        error = display_name_unavailable(name, exclude_pk=self.user.pk)
        if error is not None:
            raise error
        return name


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"), widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, *args, user: User, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("The password is not correct."), code="wrong_password")
        return password
