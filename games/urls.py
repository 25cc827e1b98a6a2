from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.play, name="play"),
    path("m/<public_id:public_id>/", views.table, name="table"),
    path("tournament/<public_id:public_id>/", views.tournament, name="tournament"),
]
