"""Forms of the profile pages (sign-up and sign-in forms are allauth's)."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField

from .models import User
from .validators import display_name_validators


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), validators=display_name_validators)
    country = LazyTypedChoiceField(label=_("Country"), choices=[("", "—")] + list(countries), required=False)

    def __init__(self, *args, user: User, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        taken = User.objects.filter(username__iexact=name).exclude(pk=self.user.pk).exists()
        if taken:
            raise forms.ValidationError(_("That display name is already taken."), code="display_name_taken")
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
