from django.urls import path

from search import views

app_name = "search"
urlpatterns = [
    path("search/", views.results, name="results"),
    path("api/search/", views.api, name="api"),
    path("api/suggest/", views.suggest, name="suggest"),
    path("opensearch.xml", views.opensearch, name="opensearch"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/live", views.healthz_live, name="healthz-live"),
    path("metrics", views.metrics_text, name="metrics"),
]
