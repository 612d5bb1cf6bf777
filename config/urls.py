from csp.constants import SELF
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularSwaggerSplitView

from accounts import api as accounts_api
from accounts import language, preferences
from accounts import views as accounts_views
from config import api_root, favicon, health, metrics, pwa, schema, views
from league.profile import guest_signup
from league.profile import views as profile_views

# The staff's pages say whose they are (not "Django administration").
admin.site.site_header = _("Mediana staff")
admin.site.site_title = _("Mediana staff")
admin.site.index_title = _("Moderation and data")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.metrics, name="metrics"),  # Prometheus, with METRICS_TOKEN
    # Browsers ask for /favicon.ico on pages that name no icon (the admin, the API's pages):
    # the icon itself, not a redirect to /static/ that only some servers serve.
    path("favicon.ico", favicon.favicon, name="favicon"),
    # The installable app (config/pwa.py): its manifest, and the service worker at the root so
    # its scope is the whole site (it shows pushed notices).
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    # docs/translations.md: the header's language switcher, and the browser client's catalog
    # (the djangojs domain in the active language) at a stable address.
    path("i18n/setlang/", language.set_language, name="set_language"),
    # Only Mediana's own catalogue (LOCALE_PATHS), not the admin's scripts' strings.
    path(
        "i18n/js/",
        JavaScriptCatalog.as_view(packages=["gameplay", "league"]),
        name="javascript-catalog",
    ),
    path("login/", accounts_views.legacy_login, name="login"),
    path("logout/", accounts_views.legacy_logout, name="logout"),
    path("accounts/profile/", profile_views.profile, name="profile"),
    path("accounts/preferences/", preferences.preferences, name="preferences"),
    path("accounts/profile/token/", profile_views.replace_token, name="profile-token"),
    path("accounts/profile/delete/", profile_views.delete_account, name="profile-delete"),
    path("accounts/claim/", profile_views.claim, name="claim"),
    # allauth's sign-up, which lets a guest in to keep their games (league/profile/guest_signup.py).
    path("accounts/signup/", guest_signup.signup),
    path("accounts/guest/", accounts_views.play_as_guest, name="play-as-guest"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("api/", api_root.ApiRoot.as_view(), name="api-root"),
    path("api/schema/", schema.SchemaView.as_view(), name="api-schema"),
    # The split view: Swagger UI's start-up script is a file of its own (/api/docs/?script=), not
    # inline, as the Content Security Policy asks (templates/drf_spectacular/swagger_ui.html);
    # its style sheet draws icons from data: URLs, allowed as images on this page only.
    path(
        "api/docs/",
        csp_update({"img-src": [SELF, "data:"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
    path("api/token/", accounts_api.ObtainToken.as_view(), name="api-token"),
    path("api/tables/", include("gameplay.lobby_api_urls")),
    path("api/", include("gameplay.meeting_api_urls")),  # seeks/, challenges/
    path("api/", include("league.api.urls")),
    path("", include("league.urls")),
    path("", include("gameplay.urls")),
]
