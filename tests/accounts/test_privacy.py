"""Privacy: the policy page, "Download my data" and "Disable and delete my data"."""

import json

import pytest
from django.apps import apps
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.urls import reverse

from accounts.models import Profile, User
from stats.models import PlayerStats
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def models_pointing_at_users():
    """(model, field name) for every FK / one-to-one to the user model, across all installed apps."""
    user_model = apps.get_model("accounts", "User")
    found = []
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.get_fields():
            if isinstance(field, (models.ForeignKey, models.OneToOneField)) and field.related_model is user_model:
                found.append((model, field.name))
    return found


def sign_up_through_the_site(client) -> User:
    client.post(
        reverse("account_signup"),
        {"email": "rich@example.com", "username": "Rico", "password1": PASSWORD, "password2": PASSWORD},
    )
    user = User.objects.get(username="Rico")
    user.profile.country = "BR"
    user.profile.save()
    # Rows other apps keep about a person, made through their own services where they exist.
    LogEntry.objects.create(
        user=user,
        content_type=ContentType.objects.get_for_model(User),
        object_id=str(user.pk),
        object_repr="Rico",
        action_flag=ADDITION,
    )
    return user


def test_privacy_policy_says_what_why_how_long_and_how_to_delete(client):
    html = client.get(reverse("accounts:privacy"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for heading in ("What we store", "Why", "For how long", "export and deletion"):
        assert heading in html


def test_export_is_a_json_file_of_what_is_stored(signed_in_client, user):
    user.profile.country = "AR"
    user.profile.save()
    response = signed_in_client.get(reverse("accounts:export"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment;" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["display_name"] == "Ana"
    assert data["account"]["email"] == user.email
    assert data["profile"]["country"] == "AR"
    assert "password" not in json.dumps(data).lower()


def test_export_requires_sign_in(client):
    assert client.get(reverse("accounts:export")).status_code == 302


def test_delete_with_a_wrong_password_changes_nothing(signed_in_client, user):
    response = signed_in_client.post(reverse("accounts:delete"), {"password": "not-it"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "The password is not correct." in response.content.decode()
    assert User.objects.filter(pk=user.pk).exists()


def test_delete_removes_the_account_and_signs_out(signed_in_client, user):
    response = signed_in_client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not User.objects.filter(pk=user.pk).exists()
    assert not Profile.objects.filter(user_id=user.pk).exists()
    assert "_auth_user_id" not in signed_in_client.session


def test_no_row_of_any_model_points_to_a_deleted_user(client):
    """Walks every model with a FK/one-to-one to the user, so new models are guarded as they arrive."""
    user = sign_up_through_the_site(client)
    client.force_login(user)
    pk = user.pk
    before = {m._meta.label: m._base_manager.filter(**{f: pk}).count() for m, f in models_pointing_at_users()}
    assert before["accounts.Profile"] == 1 and before["account.EmailAddress"] == 1  # the walk sees real rows

    response = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 302

    leftovers = {
        m._meta.label: m._base_manager.filter(**{f: pk}).count()
        for m, f in models_pointing_at_users()
        if m._base_manager.filter(**{f: pk}).exists()
    }
    assert leftovers == {}
    assert not User.objects.filter(pk=pk).exists()


def test_export_gives_the_experience_and_level_the_statistics_make(signed_in_client, user):
    PlayerStats.objects.create(user=user, counters={"played": 5, "won": 4, "lost": 1})  # 4 × 30 + 10
    data = json.loads(signed_in_client.get(reverse("accounts:export")).content)
    exported = data["statistics"]
    assert (exported["experience"], exported["level"]) == (130, 2)
