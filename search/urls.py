from django.urls import path

from search import baseline_views, views

app_name = "search"
urlpatterns = [
    path("search/", views.results, name="results"),
    path("api/search/", views.api, name="api"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/live", views.healthz_live, name="healthz-live"),
    path("api/baseline/<str:name>/", baseline_views.baseline, name="baseline"),
]
