from django.urls import path

from search import views

app_name = "search"
urlpatterns = [
    path("search/", views.results, name="results"),
    path("api/search/", views.api, name="api"),
    path("healthz", views.healthz, name="healthz"),
]
