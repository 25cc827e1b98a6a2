from django.urls import path

from . import views

app_name = "stats"

urlpatterns = [
    path("", views.statistics, name="statistics"),
    path("achievements/", views.achievements, name="achievements"),
]
