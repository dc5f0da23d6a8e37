"""The site's URLs: each app brings its own."""

from django.contrib import admin
from django.urls import include, path

from accounts.forms import AdminSignInForm
from core.script_catalog import script_catalog
from tripeaks_site.install import manifest, offline, service_worker
from tripeaks_site.views import health, metrics, ready

handler500 = "tripeaks_site.views.server_error"

# Staff sign in to the admin with a form that checks the username's length, as the site's does.
admin.site.login_form = AdminSignInForm

urlpatterns = [
    path("healthz", health, name="health"),
    path("readyz", ready, name="ready"),
    path("metrics", metrics, name="metrics"),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service_worker"),
    path("offline/", offline, name="offline"),
    path("", include("game.urls")),
    path("", include("accounts.urls")),
    path("", include("leaderboard.urls")),
    path("", include("races.urls")),
    path("", include("spectate.urls")),
    path("", include("moderation.urls")),
    path("", include("api.urls")),
    path("admin/", admin.site.urls),
    # Languages: the switcher posts to set_language (/i18n/setlang/); the scripts' words come
    # from the catalog at /jsi18n/, which every page not in English loads (docs/translations.md).
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", script_catalog, name="javascript_catalog"),
]
