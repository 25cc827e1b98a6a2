"""Sign-up, sign-in (email or display name), sign-out and password reset through allauth's real views."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Profile, User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signup(client, **overrides):
    data = {"email": "bia@example.com", "username": "Bia_10", "password1": PASSWORD, "password2": PASSWORD}
    data.update(overrides)
    return client.post(reverse("account_signup"), data)


def test_signup_creates_user_with_profile_and_signs_in(client):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(email="bia@example.com")
    assert user.username == "Bia_10"
    assert Profile.objects.filter(user=user).exists()
    assert int(client.session["_auth_user_id"]) == user.pk


def test_signup_page_asks_for_email_display_name_and_password(client):
    html = client.get(reverse("account_signup")).content.decode()
    for name in ("email", "username", "password1", "password2"):
        assert f'name="{name}"' in html


def test_signin_with_email(client, user):
    response = client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == user.pk


def test_signin_with_display_name_ignoring_case(client, user):
    response = client.post(reverse("account_login"), {"login": user.username.upper(), "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == user.pk


def test_signin_with_wrong_password_is_refused(client, user):
    response = client.post(reverse("account_login"), {"login": user.email, "password": "wrong-password"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_signout(signed_in_client):
    response = signed_in_client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in signed_in_client.session


def test_password_reset_by_email_sets_a_new_password(client, user):
    response = client.post(reverse("account_reset_password"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body).group(1)
    # allauth redirects the emailed key link to a session-bound form URL.
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    form_url = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    new_password = "another-Strong-pass-7"
    done = client.post(form_url, {"password1": new_password, "password2": new_password})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new_password)


def test_signin_is_refused_even_with_the_right_password_after_five_failures(client, user):
    for i in range(5):
        client.post(reverse("account_login"), {"login": user.email, "password": f"wrong-{i}"})
    response = client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"])
def test_account_pages_use_the_sites_layout_and_words(client, url):
    pt = client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for html in (pt, en):
        assert 'class="panel auth-card"' in html and 'class="topbar' in html and 'class="stack auth-form"' in html
    pt_text, en_text = (re.sub(r"<[^>]+>", " ", html).lower() for html in (pt, en))  # what a person reads
    assert "usuário" not in pt_text and "username" not in en_text
    assert "sign in" not in pt_text


def test_sign_up_calls_the_name_display_name_in_both_languages(client):
    assert "Nome de exibição" in client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "Display name" in client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "E-mail ou nome de exibição" in client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()


def failed_signin(client, login, **headers):
    return client.post(reverse("account_login"), {"login": login, "password": "wrong-password"}, **headers)


def test_the_signin_lock_ignores_the_host_port(client, user):
    # Each wrong password through another port of the same host used to start a fresh count.
    for port in range(8001, 8006):
        failed_signin(client, user.email, HTTP_HOST=f"127.0.0.1:{port}")
    response = client.post(
        reverse("account_login"), {"login": user.email, "password": PASSWORD}, HTTP_HOST="127.0.0.1:8006"
    )
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_the_email_and_the_display_name_of_one_account_share_the_lock(client, user):
    for login in (user.email, user.username, user.email.upper(), user.username.lower(), "\u0410na"):
        failed_signin(client, login)
    response = client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_one_locked_account_does_not_lock_another(client, user, make_user):
    other = make_user("Bruno")
    for _ in range(5):
        failed_signin(client, user.email)
    response = client.post(reverse("account_login"), {"login": other.email, "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == other.pk
