from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.play, name="play"),
    path("m/<public_id:public_id>/", views.table, name="table"),
    path("history/", views.history, name="history"),
    path("m/<public_id:public_id>/leave/", views.leave, name="leave"),
    path("m/<public_id:public_id>/replay/", views.replay, name="replay"),
    path("m/<public_id:public_id>/analysis/", views.analysis, name="analysis"),
    path("tournament/<public_id:public_id>/", views.tournament, name="tournament"),
]
