"""Settings for the Okey site, read from the environment.

Environment variables (all optional for development):

- ``SECRET_KEY``: the site's secret. Without it, a random key is made once and kept in
  ``SECRET_KEY_FILE`` (default ``.secret_key`` beside manage.py, mode 0600, git-ignored),
  so sessions and signed exports survive restarts. Several servers must share one key.
- ``DEBUG``: "1"/"true"/"yes"/"on" to enable. Off unless asked for: nothing switches it on.
- ``ALLOWED_HOSTS``: comma-separated host names (default: localhost, 127.0.0.1, [::1]).
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, e.g. ``https://okey.example.org``.
- ``DATABASE_URL``: any dj-database-url URL (default: SQLite file ``db.sqlite3`` in the
  project root).
- ``REDIS_URL``: when set, channels-redis's ``RedisChannelLayer``; otherwise the in-memory
  layer (one process only).
- ``STATIC_ROOT``: where ``collectstatic`` puts the files WhiteNoise serves (default
  ``staticfiles/``).
- ``PORT``: used by ``make run`` only.
- ``LOG_FORMAT``, ``LOG_LEVEL``, ``METRICS_ALLOWED_IPS``, ``METRICS_TOKEN``,
  ``HEALTHZ_SWEEPER_MAX_LAG_S``: logs, /metrics and /healthz (docs/operators.md).

Served over HTTPS (behind a proxy that terminates TLS and sets ``X-Forwarded-Proto``):

- ``HTTPS``: "1" switches on everything below at once (each can still be set on its own).
- ``SECURE_SSL_REDIRECT``: redirect plain HTTP to HTTPS (default: ``HTTPS``).
- ``SECURE_COOKIES``: session and CSRF cookies only over HTTPS (default: ``HTTPS``).
- ``SECURE_HSTS_SECONDS``: Strict-Transport-Security max-age (default: one year with
  ``HTTPS``, otherwise 0, no header).
- ``SECURE_HSTS_INCLUDE_SUBDOMAINS``, ``SECURE_HSTS_PRELOAD``: the HSTS flags (default off:
  they commit every subdomain, and the preload list, to HTTPS).

docs/deployment.md lists the set with which ``manage.py check --deploy`` is clean.
"""

import contextlib
import os
import secrets
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


def load_or_create_secret_key(path: Path) -> str:
    """The key kept in ``path``; made (random, 0600) the first time. Two processes starting
    at once agree: the new key is written to a private temporary file and linked into
    place, which fails if the other process got there first (then its key is read)."""
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50) + "\n")
        with contextlib.suppress(FileExistsError):  # the other process's key wins
            os.link(tmp, path)
    finally:
        tmp.unlink()
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or load_or_create_secret_key(
    Path(os.environ.get("SECRET_KEY_FILE") or BASE_DIR / ".secret_key")
)
DEBUG = env_bool("DEBUG")
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
    "csp",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
    "games.review.apps.ReviewConfig",
    "games.solo.apps.SoloConfig",
    "games.tournaments.apps.TournamentsConfig",
    "games.matchmaking.apps.MatchmakingConfig",
    "games.clubs.apps.ClubsConfig",
    "games.ratings.apps.RatingsConfig",
    "games.watch.apps.WatchConfig",
    "games.fairplay.apps.FairPlayConfig",
    "games.learn.apps.LearnConfig",
    "games.insights.apps.InsightsConfig",
    "games.ops.apps.OpsConfig",
    "games.handdb.apps.HandDbConfig",
    # the HTTP API (games/api/, docs/api.md); "ninja" serves its Swagger UI files locally
    "ninja",
    "games.api.apps.ApiConfig",
]

MIDDLEWARE = [
    "games.ops.middleware.request_id",  # the id of the request's log records (games/ops/logs.py)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "games.api.middleware.api_guard",  # /api/ only: rate limit per address, body size, CORS
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ProfileLanguageMiddleware",  # the profile's language wins
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
        # No health check: with it, every database trip of a consumer or the sweeper
        # (channels' database_sync_to_async closes old connections around each call)
        # began with a "SELECT 1" round trip, a sixth query on every move with
        # PostgreSQL. A connection that broke while idle fails its next query once, and
        # Django replaces it after that error (errors_occurred).
        conn_health_checks=False,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A pool of connections per process instead of one kept connection per thread: every
    # HTTP request's view runs in a thread of its own (asgiref), and a connection kept in
    # a thread that ended stayed open until the collector found it (serve.py collects
    # rarely): a thousand page requests ran PostgreSQL out of connections ("too many
    # clients"). A trip takes a connection from the pool and gives it back at its end
    # (CONN_MAX_AGE 0, which Django's pool requires), with no round trip either way.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "10")),
        "timeout": 10,  # a thread waits this long for a free connection, then fails
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
# Rendered fragments of the heavy pages (games/common/pagecache.py): always local to the process,
# with Redis too: each key carries the version it was rendered from, read from the
# database, so every process's copy of a key is the same HTML. At most 500 fragments (the
# least recently read go first): about 50 MB if all were 100 kB replays.
CACHES["pages"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "okey-pages",
    "OPTIONS": {"MAX_ENTRIES": 500},
}
OKEY_PAGE_CACHE = os.environ.get("OKEY_PAGE_CACHE", "1") != "0"
# The heavy pages' share of a process's time while it serves live tables (games/common/heavy.py).
OKEY_PAGE_SHARE = float(os.environ.get("OKEY_PAGE_SHARE", "0.25"))

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

# Accounts: rate limits, client IP, email ----------------------------------
# (accounts/throttle.py explains each limit; docs/configuration.md lists them.)
LOGIN_IP_THROTTLE_LIMIT = int(os.environ.get("LOGIN_IP_THROTTLE_LIMIT", "20"))
LOGIN_IP_THROTTLE_WINDOW = int(os.environ.get("LOGIN_IP_THROTTLE_WINDOW", "900"))
SIGNUP_THROTTLE_LIMIT = int(os.environ.get("SIGNUP_THROTTLE_LIMIT", "5"))
SIGNUP_THROTTLE_WINDOW = int(os.environ.get("SIGNUP_THROTTLE_WINDOW", "3600"))
PASSWORD_RESET_THROTTLE_LIMIT = int(os.environ.get("PASSWORD_RESET_THROTTLE_LIMIT", "5"))
PASSWORD_RESET_THROTTLE_WINDOW = int(os.environ.get("PASSWORD_RESET_THROTTLE_WINDOW", "3600"))
# Tables opened in one tap ("Play now", a lesson's start) per account, or per IP for a guest.
PLAY_NOW_LIMIT = int(os.environ.get("PLAY_NOW_LIMIT", "10"))
PLAY_NOW_WINDOW = int(os.environ.get("PLAY_NOW_WINDOW", "60"))
# How many reverse proxies stand in front of the site (nginx alone: 1). 0 (the default):
# the client is REMOTE_ADDR and X-Forwarded-For is ignored, since clients can write it.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))

# Email: SMTP when EMAIL_HOST is set, else files in EMAIL_FILE_PATH when that is set,
# else the console (development: reset links appear in the server's output).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
    EMAIL_TIMEOUT = 20
elif EMAIL_FILE_PATH:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Okey online <noreply@localhost>")
# Send from a thread so a reset for a known address takes no longer than for an unknown
# one (accounts/mail.py); on by default with SMTP, where sending is slow.
EMAIL_SEND_IN_BACKGROUND = env_bool("EMAIL_SEND_IN_BACKGROUND", default=bool(EMAIL_HOST))

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
# One date format per language, the same on every page (okeysite/formats/__init__.py).
FORMAT_MODULE_PATH = ["okeysite.formats"]
USE_TZ = True

# Static files --------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")

# The open hand database's monthly files (games/handdb, docs/hand-database.md): written by
# ``manage.py build_hand_month``, served from /hands/; not in the repository.
HAND_DB_DIR = Path(os.environ.get("HAND_DB_DIR") or BASE_DIR / "handdb")
# Without DEBUG, WhiteNoise serves what collectstatic put in STATIC_ROOT (``make run`` and
# the browser tests' server run it): hashed names, compressed copies, cached for a year.
# Before any collectstatic (a server a test starts by itself) pages name the plain files and
# WhiteNoise finds them in static/ (okeysite/storage.py). The in-process tests render pages
# with the plain storage (tests/conftest.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "okeysite.storage.StaticStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG or not (STATIC_ROOT / "staticfiles.json").is_file()
# the table's sounds (static/sounds/): WhiteNoise's own list has no .wav
WHITENOISE_MIMETYPES = {".wav": "audio/wav"}

# Security (production) -----------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
HTTPS = env_bool("HTTPS")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=HTTPS)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or (31_536_000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
if HTTPS or SECURE_SSL_REDIRECT:
    # Trust the proxy's word that the request came over HTTPS (it must set or strip
    # this header); without it every request would look like plain HTTP and redirect.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp): scripts and styles only from our own static files,
# no inline script or event-handler attribute anywhere (page scripts are in static/js/),
# nothing may frame the site. connect-src 'self' covers the table's websocket on the same
# host (ws:/wss: of the page's origin, CSP Level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Logs: to standard error, as text, or one JSON object a line with LOG_FORMAT=json
# (games/ops/logs.py: time, level, logger, message, request_id, table_id). Every record at
# ERROR or above is also counted for /metrics (okeysite.metrics.ErrorCounter).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "games.ops.logs.RequestIdFilter"}},
    "formatters": {"json": {"()": "games.ops.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        },
        "errors": {"class": "okeysite.metrics.ErrorCounter", "level": "ERROR"},
    },
    "root": {"handlers": ["console", "errors"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The HTTP API (games/api/, docs/api.md) ------------------------------------------------
# CORS is off (no Access-Control-* header at all) unless origins are listed here,
# comma-separated, e.g. "https://app.example.org".
API_CORS_ORIGINS = env_list("API_CORS_ORIGINS", [])
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", str(64 * 1024)))
API_IP_RATE_LIMIT = int(os.environ.get("API_IP_RATE_LIMIT", "300"))
API_IP_RATE_WINDOW = int(os.environ.get("API_IP_RATE_WINDOW", "60"))
API_TOKEN_RATE_LIMIT = int(os.environ.get("API_TOKEN_RATE_LIMIT", "120"))
API_TOKEN_RATE_WINDOW = int(os.environ.get("API_TOKEN_RATE_WINDOW", "60"))
API_AUTH_FAIL_LIMIT = int(os.environ.get("API_AUTH_FAIL_LIMIT", "10"))
API_AUTH_FAIL_WINDOW = int(os.environ.get("API_AUTH_FAIL_WINDOW", "600"))
API_OPEN_TABLE_LIMIT = int(os.environ.get("API_OPEN_TABLE_LIMIT", "10"))
API_OPEN_TABLE_WINDOW = int(os.environ.get("API_OPEN_TABLE_WINDOW", "60"))

# Bot accounts' stream (games/api/bot_stream.py, docs/bots-api.md): open streams per bot
# account, per client address and per server process; per stream, tables followed, pending
# changes, bytes and seconds before the server closes it; the heartbeat line's period.
BOT_STREAMS_PER_ACCOUNT = int(os.environ.get("BOT_STREAMS_PER_ACCOUNT", "4"))
BOT_STREAMS_PER_IP = int(os.environ.get("BOT_STREAMS_PER_IP", "16"))
BOT_STREAMS_TOTAL = int(os.environ.get("BOT_STREAMS_TOTAL", "2000"))
BOT_STREAM_TABLES = int(os.environ.get("BOT_STREAM_TABLES", "16"))
BOT_STREAM_QUEUE = int(os.environ.get("BOT_STREAM_QUEUE", "32"))
BOT_STREAM_MAX_BYTES = int(os.environ.get("BOT_STREAM_MAX_BYTES", str(8 * 1024 * 1024)))
BOT_STREAM_MAX_S = int(os.environ.get("BOT_STREAM_MAX_S", "3600"))
BOT_STREAM_HEARTBEAT_S = float(os.environ.get("BOT_STREAM_HEARTBEAT_S", "10"))

# Operations (games/ops/, docs/operators.md) --------------------------------------------
# /metrics answers these addresses (comma-separated addresses or networks; empty: none)
# and any request with "Authorization: Bearer <METRICS_TOKEN>"; everyone else gets a 404.
METRICS_ALLOWED_IPS = [
    item.strip()
    for item in os.environ.get("METRICS_ALLOWED_IPS", "127.0.0.1,::1").split(",")
    if item.strip()
]
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# /healthz fails "sweeper" when this process's sweeper has not finished a pass for this long.
HEALTHZ_SWEEPER_MAX_LAG_S = float(os.environ.get("HEALTHZ_SWEEPER_MAX_LAG_S", "30"))
# Scrapers and health checks reach each process over plain HTTP on its own port.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]

# The table: CPU moves wait this long so players see them (each step of a CPU turn at a
# table whose "CPU speed" is normal; fast waits 0.15 of it: games/live/actions/clock.py);
# the sweeper looks for due CPU moves and clocks this often (seconds).
OKEY_CPU_DELAY_MS = int(os.environ.get("OKEY_CPU_DELAY_MS", "300"))
OKEY_SWEEP_INTERVAL = float(os.environ.get("OKEY_SWEEP_INTERVAL", "0.2"))
# A dropped player's seat is played by its CPU after this many seconds.
OKEY_AWAY_GRACE_S = float(os.environ.get("OKEY_AWAY_GRACE_S", "15"))
# Tests and demos only: every turn clock runs this many seconds instead of the table's
# 15/30/60 (games/live/actions/, turn_clock). 0: the tables' own clocks.
OKEY_TURN_CLOCK_S = float(os.environ.get("OKEY_TURN_CLOCK_S", "0"))
# A person away from a rated game this long (or who presses Leave) forfeits it: their CPU
# finishes the game and they rank last (games/live/actions/, "leavers").
OKEY_FORFEIT_GRACE_S = float(os.environ.get("OKEY_FORFEIT_GRACE_S", "60"))
# Presence (games/live/actions/): each server process vouches for its open table sockets every
# OKEY_PRESENCE_HEARTBEAT_S seconds; a socket no process vouched for within OKEY_PRESENCE_TTL_S
# (its process was killed) stops counting.
OKEY_PRESENCE_HEARTBEAT_S = float(os.environ.get("OKEY_PRESENCE_HEARTBEAT_S", "10"))
OKEY_PRESENCE_TTL_S = float(os.environ.get("OKEY_PRESENCE_TTL_S", "45"))
# Tests and demos only: predictable deal seeds (prefix + table id + hand number).
# Never set in production: seeds come from the OS's secure random source.
OKEY_SEED_PREFIX = os.environ.get("OKEY_SEED_PREFIX", "")
