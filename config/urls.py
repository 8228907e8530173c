from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts.urls import auth_urlpatterns
from core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path(settings.ADMIN_URL, admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include(auth_urlpatterns)),
    path("campaigns/", include("campaigns.urls")),
    path("characters/", include("characters.urls")),
    path("characters/", include("states.urls")),
    path("conflicts/", include("conflicts.urls")),
    path("tragic/", include("tragic.urls")),
    path("frag/", include("frag.urls")),
]

if settings.BENCH_VIEWS:
    # Only for `make bench`: a bare view that makes a given number of queries, as a baseline.
    from bench import views as bench_views

    urlpatterns += [
        path("bench/bare/<id:queries>/", bench_views.bare),
        path("bench/page/", bench_views.bare_page),
    ]
