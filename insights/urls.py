from django.urls import path

from insights import views

app_name = "insights"
urlpatterns = [
    path("search/click", views.click, name="click"),
]
