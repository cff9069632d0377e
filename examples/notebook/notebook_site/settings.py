"""A second site on search: its own models (journal/), its own settings, search as an installed
app. Development settings (the repository's dev PostgreSQL and Elasticsearch)."""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = os.environ.get("SECRET_KEY", "notebook-development-key")
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "pgtrigger",
    "journal",
    "search",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]

ROOT_URLCONF = "notebook_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

# Its own database on the blog's server (make exports DATABASE_URL), or NOTEBOOK_DATABASE_URL.
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL", "postgres://blogsearch@127.0.0.1:54329/blogsearch"))}
DATABASES["default"]["NAME"] = "notebook"
if os.environ.get("NOTEBOOK_DATABASE_URL"):
    DATABASES["default"] = dj_database_url.parse(os.environ["NOTEBOOK_DATABASE_URL"])
STATIC_URL = "/static/"
USE_TZ = True
TIME_ZONE = "UTC"

# Search: every setting has a default; the notebook keeps its indices apart from the blog's.
SEARCH = {"INDEX_PREFIX": os.environ.get("NOTEBOOK_INDEX_PREFIX", "notebook")}
ELASTICSEARCH = {"URL": os.environ.get("ELASTICSEARCH_URL", "http://127.0.0.1:9200")}
