"""A second site on search: its own models (journal/), its own settings, search as an installed
app. Development settings (the repository's dev PostgreSQL and Elasticsearch)."""

import os
from pathlib import Path
from urllib.parse import urlsplit

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

# Its own database on the blog's server (make exports DATABASE_URL), or NOTEBOOK_DATABASE_URL: the
# guide's plain dict, its parts read from the URL with the standard library.
url = urlsplit(os.environ.get("NOTEBOOK_DATABASE_URL") or os.environ.get("DATABASE_URL", "postgres://blogsearch@127.0.0.1:54329/blogsearch"))
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": url.path.lstrip("/") if os.environ.get("NOTEBOOK_DATABASE_URL") else "notebook",
        "USER": url.username or "",
        "PASSWORD": url.password or "",
        "HOST": url.hostname or "",
        "PORT": str(url.port or ""),
    }
}
CACHES = {"default": {"BACKEND": "search.localcache.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 20000, "MAX_BYTES": 4 * 2**20}}}
STATIC_URL = "/static/"
USE_TZ = True
TIME_ZONE = "UTC"

# Search, as docs/adopting.md step 3: the notebook's own index prefix and Elasticsearch user.
SEARCH = {
    "INDEX_PREFIX": os.environ.get("NOTEBOOK_INDEX_PREFIX", "notebook"),
    "BASE_TEMPLATE": "base.html",
    "WORDS": {"entry": "item", "entries": "items", "reply": "reply", "replies": "replies", "site": "notebook", "replies_anchor": ""},
}
ELASTICSEARCH = {"URL": os.environ["ELASTICSEARCH_URL"]}
