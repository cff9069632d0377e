from django.contrib import admin
from django.urls import include, path

from search.api import get_settings

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("insights.urls")),
    path("", include("search.urls")),
    path("", include("blog.urls")),
]

if get_settings().serving.baseline_views:  # benchmark-only views (bench/views.py); never in production
    from bench import views as bench_views

    urlpatterns += [
        path("api/baseline/hello/", bench_views.hello, name="baseline-hello"),
        path("api/baseline/<str:name>/", bench_views.baseline, name="baseline"),
    ]
