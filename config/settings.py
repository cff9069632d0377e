"""Settings for the blog search site, read from the environment with development defaults.

Every variable a deployer may set is listed in the README's configuration table. It fails closed:
DEBUG is off unless DEBUG=1 is set (the Makefile sets it for development and tests), and with DEBUG
off the default secret key is refused and the secure-cookie/HSTS settings apply.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from dotenv import load_dotenv

from config.env import env_bool, env_int, env_list, env_str
from insights.conf import from_environment as insights_settings_from_environment
from search.api import overrides_from_environment

BASE_DIR = Path(__file__).resolve().parent.parent

# A checkout after `make` has a development environment file (DEBUG=1, the dev PostgreSQL), so that
# `python manage.py ...` and pytest work there as the docs show. It only fills variables that are
# not set, and it is never in the image (.dockerignore): production still fails closed. ENV_FILE
# names another file; empty, none (the tests of the fail-closed defaults use that).
ENV_FILE = os.environ.get("ENV_FILE", str(BASE_DIR / ".env.dev"))
if ENV_FILE:
    load_dotenv(ENV_FILE, override=False)

DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me"
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (production); refusing the development key.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "pgtrigger",  # installs search's triggers through the site's migrations (search/triggers.py)
    "blog",
    "search",
    "insights",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before WhiteNoise, so static files carry the policy too.
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "insights.context_processors.insights",
            ],
        },
    },
]

# The dev scripts start a private cluster at this address when DATABASE_URL is not set.
DATABASE_URL = env_str("DATABASE_URL", "postgres://blogsearch@127.0.0.1:54329/blogsearch")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env_int("DB_CONNECT_TIMEOUT", 5)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Result cache. Local memory by default; REDIS_URL switches to Django's built-in Redis cache.
# Correctness does not depend on the backend: cached results are keyed by an index generation
# kept in PostgreSQL (see search/generation.py).
REDIS_URL = env_str("REDIS_URL", "")
# Short socket timeouts: a Redis that hangs costs a search ~0.1 s once, then the cache breaker
# (serving.cache_breaker_seconds) skips it for a while (search/querying/resultcache.py).
REDIS_CACHE_OPTIONS = {"socket_timeout": 0.1, "socket_connect_timeout": 0.1}
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "OPTIONS": REDIS_CACHE_OPTIONS}}
else:
    # Bounded in bytes (search/localcache.py), not only in entries: an answer is a 2-4 KB pickled
    # tuple, and 20,000 of them grew every worker by ~65 MB (docs/benchmarks.md#memory). 4 MiB a
    # worker holds ~1,200 answers (and words), each living SEARCH_CACHE_SECONDS (300 s): a few
    # new queries a second per worker before a live answer is dropped, least recently used first.
    # The entry bound is set high so that the bytes decide (Django's default of 300 would).
    CACHES = {
        "default": {
            "BACKEND": "search.localcache.LocMemCache",
            "LOCATION": "blogsearch",
            "OPTIONS": {"MAX_ENTRIES": 20000, "MAX_BYTES": 4 * 2**20},
        }
    }

# The pages speak the blog's language (SEARCH_LANGUAGE, search/conf.py): the search app ships
# German and French translations (search/locale/); a site sets its own LANGUAGE_CODE.
LANGUAGE_CODE = {"de": "de", "fr": "fr"}.get(os.environ.get("SEARCH_LANGUAGE", "en"), "en-us")
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG else "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Production hardening (checked by `manage.py check --deploy`).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", False) else None
# Prometheus scrapes /metrics over the internal network in plain HTTP (its access rules:
# search/metrics_serving.py); every other path is redirected to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy of every response (config/csp.py; the shape of Django 6.0's setting).
# No inline scripts anywhere and no scripts from elsewhere: pages load /static/ files only. Posts
# are the authors' own HTML: the corpus has ~5,500 style attributes, external images and a few
# embedded players, so style *attributes* (never <style> elements), https images and https frames
# are allowed; scripts in post bodies stay blocked.
SECURE_CSP = {
    "default-src": ["'self'"],
    "img-src": ["'self'", "data:", "https:"],
    "style-src-attr": ["'unsafe-inline'"],
    "frame-src": ["https:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

LOGIN_URL = "/admin/login/"

# Error pages and error reports never show credentials, whatever setting or variable holds them.
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.reporting.CredentialsFilter"

# ---------------------------------------------------------------- Elasticsearch and search
# Every tunable of the search service, its connection to Elasticsearch and the search log has its
# one default in search/conf.py (docs/configuration.md lists them). These three settings hold only
# overrides, here those of the environment variables set: SEARCH (index, sync, ranking, serving),
# ELASTICSEARCH (the connection: ELASTICSEARCH_URL, ELASTICSEARCH_TIMEOUT, ...) and INSIGHTS (the
# search log: INSIGHTS_ENABLED, INSIGHTS_RETENTION_DAYS).
# The blog hands every search served to its search log (insights/, search/recording.py). Its
# indices are named `blog-*` unless SEARCH_INDEX_PREFIX says otherwise (every site names its own).
SEARCH = {"RECORDER": "insights.log", "INDEX_PREFIX": "blog", **overrides_from_environment(os.environ, debug=DEBUG)}
ELASTICSEARCH = overrides_from_environment(os.environ, source="ELASTICSEARCH")
INSIGHTS = insights_settings_from_environment(os.environ)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "elastic_transport": {"level": "WARNING"},
        "elasticsearch": {"level": "WARNING"},
    },
}
