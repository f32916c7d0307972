"""Settings for the Okey site, read from the environment.

Environment variables (all optional for development):

- ``SECRET_KEY``: required in production; a fixed development key is used otherwise.
- ``DEBUG``: "1"/"true"/"yes"/"on" to enable (default on, unless SECRET_KEY is set).
- ``ALLOWED_HOSTS``: comma-separated host names (default: localhost, 127.0.0.1, [::1]).
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, e.g. ``https://okey.example.org``.
- ``DATABASE_URL``: any dj-database-url URL (default: SQLite file ``db.sqlite3`` in the
  project root).
- ``REDIS_URL``: when set, channels-redis's ``RedisChannelLayer``; otherwise the in-memory
  layer (one process only).
- ``PORT``: used by ``make run`` only.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


_DEV_SECRET_KEY = "django-insecure-dev-only-okey-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or _DEV_SECRET_KEY
DEBUG = env_bool("DEBUG", default="SECRET_KEY" not in os.environ)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # first, so that runserver serves ASGI (websockets)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
    "games.review.apps.ReviewConfig",
    "games.solo.apps.SoloConfig",
    "games.tournaments.apps.TournamentsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "okeysite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "okeysite.wsgi.application"
ASGI_APPLICATION = "okeysite.asgi.application"

# Database ------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Keep connections: every websocket frame runs a few ORM calls on worker
        # threads, and reconnecting each time was a large share of the cost (and of
        # PostgreSQL sessions) in the load benchmark.
        conn_max_age=600,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The async consumers (on threads) and the sweeper write concurrently: wait for the
    # lock instead of failing at once, take the write lock at BEGIN (IMMEDIATE) so a
    # read-then-write transaction never deadlocks on upgrade, and use WAL so readers do
    # not block the writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": (
                "PRAGMA journal_mode=WAL;"
                "PRAGMA synchronous=NORMAL;"
                "PRAGMA busy_timeout=20000;"
                "PRAGMA foreign_keys=ON;"
            ),
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channels ------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "okeysite.channel_layers.ThrottledInMemoryChannelLayer"}
    }

# Cache (login throttling). Local memory is per process; with Redis, share it.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Auth ----------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling: this many failures per IP + username within the window -> refused.
LOGIN_THROTTLE_LIMIT = int(os.environ.get("LOGIN_THROTTLE_LIMIT", "5"))
LOGIN_THROTTLE_WINDOW = int(os.environ.get("LOGIN_THROTTLE_WINDOW", "300"))

# Internationalisation ------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("de", _("German")),
    ("tr", _("Turkish")),
]
LOCALE_PATHS = [BASE_DIR / "okeysite" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files --------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security (production) -----------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The table: CPU moves wait this long so players see them; the sweeper looks
# for due CPU moves and clocks this often (seconds).
OKEY_CPU_DELAY_MS = int(os.environ.get("OKEY_CPU_DELAY_MS", "700"))
OKEY_SWEEP_INTERVAL = float(os.environ.get("OKEY_SWEEP_INTERVAL", "0.2"))
# A dropped player's seat is played by its CPU after this many seconds.
OKEY_AWAY_GRACE_S = float(os.environ.get("OKEY_AWAY_GRACE_S", "15"))
# Tests and demos only: predictable deal seeds (prefix + table id + hand number).
# Never set in production: seeds come from the OS's secure random source.
OKEY_SEED_PREFIX = os.environ.get("OKEY_SEED_PREFIX", "")
