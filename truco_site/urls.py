from django.contrib import admin
from django.urls import include, path, re_path

from stats import views as stats_views

from . import views

# The site's error page; a database that cannot be reached answers 503 (truco_site.views.server_error).
handler500 = "truco_site.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("play/", include("games.urls")),
    path("shop/", include("shop.urls")),
    # Sections whose issues have not landed yet say so plainly instead of a 404.
    path("rooms/", include("rooms.urls")),
    path("stats/", include("stats.urls")),
    path("leaderboards/", stats_views.leaderboards, name="leaderboards"),
    # Uploaded catalogue images. Served by Django itself so the site runs without nginx; the shop
    # accepts only png/jpg/webp uploads, and SecurityMiddleware sends nosniff.
    re_path(r"^media/(?P<path>.*)$", views.media),
]
