from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile_edit, name="profile"),
    path("profile/export/", views.export_data, name="export"),
    path("profile/delete/", views.delete_account, name="delete"),
    path("players/<display_name:display_name>/", views.public_profile, name="public_profile"),
    path("friends/", views.friends_page, name="friends"),
    path("friends/<slug:action>/", views.friend_action, name="friend_action"),
    path("privacy/", views.privacy_policy, name="privacy"),
]
