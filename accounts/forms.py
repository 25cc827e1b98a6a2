"""Forms of the profile pages, and allauth's sign-in and sign-up forms in the site's words."""

from allauth.account import forms as allauth_forms
from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField  # type: ignore[attr-defined]  # not in its stubs

from .models import User, display_name_unavailable
from .names import canonical
from .validators import display_name_validators


class DisplayNameField(forms.CharField):
    """Normalised (NFKC) before the rules run: "Ａｄｍｉｎ" is checked, and stored, as "Admin"."""

    def to_python(self, value):
        value = super().to_python(value)
        return canonical(value) if value else value


class SignUpForm(allauth_forms.SignupForm):
    """allauth's sign-up; its "username" is the public display name, so it is called that everywhere."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        name = self.fields["username"]
        name.label = _("Display name")
        name.help_text = _("How other players see you: 3 to 20 letters, digits, _ or -.")
        name.widget.attrs["placeholder"] = _("Display name")
        self.fields["email"].label = _("Email")

    def try_save(self, request):
        # The name was free when the form was checked; a parallel sign-up may have taken it (or a
        # look-alike, or the email) since. The database refuses the second: say so, never a 500.
        try:
            with transaction.atomic():
                return super().try_save(request)
        except IntegrityError:
            messages.error(request, _("That display name or email address was taken a moment ago. Please try again."))
            return None, redirect(request.get_full_path())


class AddEmailForm(allauth_forms.AddEmailForm):
    """allauth's form on the email addresses page, with the site's word for the field."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("Email")


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    """allauth's password reset, with the site's word for the field."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("Email")


class SignInForm(allauth_forms.LoginForm):
    """allauth's sign-in, which takes the email or the display name."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Email or display name")
        self.fields["login"].widget.attrs["placeholder"] = _("Email or display name")
        # allauth puts its own "forgot your password?" link here; the page has one below the form.
        self.fields["password"].help_text = ""
        if "remember" in self.fields:
            self.fields["remember"].label = _("Remember me")


class ProfileForm(forms.Form):
    display_name = DisplayNameField(label=_("Display name"), validators=display_name_validators)
    country = LazyTypedChoiceField(label=_("Country"), choices=[("", "—")] + list(countries), required=False)
    public_stats = forms.BooleanField(
        label=_("Show me on public leaderboards"),
        help_text=_("When off, you appear on no public leaderboard and your public profile shows no statistics."),
        required=False,
    )
    table_chat = forms.BooleanField(
        label=_("Show the table chat"),
        help_text=_("When off, you see no chat at room tables and cannot write in it."),
        required=False,
    )
    show_whereabouts = forms.BooleanField(
        label=_("Show my friends when I am online and where I am playing"),
        help_text=_(
            "When off, your friends see neither whether you are online nor whether you are in a room or playing "
            "a match."
        ),
        required=False,
    )

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
