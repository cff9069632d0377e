from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("insights.urls")),
    path("", include("search.urls")),
    path("", include("blog.urls")),
]
