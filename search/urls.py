from django.urls import path

from search import baseline_views, views

app_name = "search"
urlpatterns = [
    path("search/", views.results, name="results"),
    path("api/search/", views.api, name="api"),
    path("healthz", views.healthz, name="healthz"),
    path("api/baseline/<str:name>/", baseline_views.baseline, name="baseline"),
]
