"""Settings for TriPeaks Online, read from environment variables.

Every variable has a safe default for a newcomer's machine: SQLite and Channels' in-memory layer.

- ``DEBUG``: ``1`` for development; off unless set.
- ``SECRET_KEY``: required when ``DEBUG`` is off.
- ``ALLOWED_HOSTS``: comma-separated host names; loopback only by default.
- ``DATABASE_URL``: e.g. ``postgres://postgres@127.0.0.1:5432/tripeaks``; default a SQLite file.
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0``; selects the Redis channel layer and cache.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, for a site behind a proxy on another port.
- ``SECURE_SSL_REDIRECT``: ``0`` to leave HTTPS redirection to the proxy (default on in production).
- ``EMAIL_HOST``: an SMTP server for password-reset mail; unset, mail is printed on the console.
  With it: ``EMAIL_PORT`` (587), ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``
  (on) or ``EMAIL_USE_SSL`` (off).
- ``DEFAULT_FROM_EMAIL``: the sender of the site's mail.
- ``DAILY_SEED_SECRET``: the key the daily challenge's seeds are drawn with; by default one derived
  from ``SECRET_KEY``. Changing it changes every daily not yet created.
- ``API_RATE_PER_MINUTE``: requests one address may make of the public API a minute (60).
- ``API_CACHE_SECONDS``: how long the API's answers are cached (10).
"""

import hashlib
import hmac
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from core.pool import pool_options

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean: 1/true/yes/on or 0/false/no/off, case-insensitive."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1 or 0), not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for development).")
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

# The daily challenge's seeds are HMAC-SHA256(DAILY_SEED_SECRET, "<date>/<n>"): nobody can work
# out a day's deal before its seed is published, the day after.
DAILY_SEED_SECRET = (
    os.environ.get("DAILY_SEED_SECRET", "")
    or hmac.new(
        SECRET_KEY.encode(), b"tripeaks-online daily challenge seeds", hashlib.sha256
    ).hexdigest()
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "core",
    "game",
    "accounts",
    "leaderboard",
    "races",
    "spectate",
    "moderation",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the request: a NUL byte in its URL or a header is a 400 (PostgreSQL
    # refuses NUL in text).
    "tripeaks_site.middleware.RefuseNulBytes",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions and before CommonMiddleware, as Django asks: picks each request's language
    # from the language cookie (set by the footer's switcher), then Accept-Language, else English.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a login refused for too many failures into a page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tripeaks_site.urls"
ASGI_APPLICATION = "tripeaks_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.looks",
            ],
        },
    },
]

# Database: SQLite by default, anything dj-database-url understands otherwise.
#
# On PostgreSQL each process takes its connections from a pool (Django's psycopg pool) rather than
# keeping one per thread: under ASGI every request runs in a thread of its own, so persistent
# connections would open a session per request and leave it lingering (Django's documentation says
# to turn them off under ASGI). A connection is checked as it leaves the pool, so one cut by a
# database restart is replaced before a request sees it; after an outage the pool reconnects
# within about a second of the database's return, however long it was down (core/pool.py). The
# game's two database threads and the analysis loop's each hold a connection of the pool for good
# (game/live.py, game/postgame.py); the moves in play go on one session of the process's own,
# outside the pool (game/writer.py).
# docs/operations.md sizes the pool against PostgreSQL's max_connections.
# - DATABASE_POOL_SIZE: connections a process may hold at once (10). DATABASE_POOL_TIMEOUT: seconds
#   a request waits for one before it fails (5).
# - DATABASE_CONNECT_TIMEOUT: seconds to open a connection (3). DATABASE_STATEMENT_TIMEOUT_MS: the
#   longest a statement may run before the server cancels it (5000).
# - GAME_DATABASE_TIMEOUT: seconds a move, or a game being loaded, waits for the database before
#   the player is told to try again (3).
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "10"))
DATABASE_POOL_TIMEOUT = float(os.environ.get("DATABASE_POOL_TIMEOUT", "5"))
DATABASE_CONNECT_TIMEOUT = int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "3"))
DATABASE_STATEMENT_TIMEOUT_MS = int(os.environ.get("DATABASE_STATEMENT_TIMEOUT_MS", "5000"))
GAME_DATABASE_TIMEOUT = float(os.environ.get("GAME_DATABASE_TIMEOUT", "3"))
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0, conn_health_checks=True
    ),
}
# SQLite (the embedded default) has one writer at a time. A transaction that has read and then
# writes while another writes fails at once as "database is locked" (waiting could deadlock), and
# here game threads, requests and the analysis loop all write: each transaction begins IMMEDIATE
# instead, taking the write lock first and waiting its turn for it (up to 20 s).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "pool": pool_options(DATABASE_POOL_SIZE, DATABASE_POOL_TIMEOUT),
            "connect_timeout": DATABASE_CONNECT_TIMEOUT,
            "options": f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT_MS}",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: Redis when REDIS_URL is set, process-local otherwise. The channel layer
# speaks Redis pub/sub as channels_redis' pub/sub layer does: a group message is one PUBLISH
# whatever the group's size, and each process receives on one subscription (bench/races.py, two
# processes, ten rooms of eight racers: channels_redis' core layer's p50 was 200 ms, pub/sub's 9).
# It is the site's own (core/redis_layer.py) so that sockets open and play goes on while
# Redis is down, and no subscription outlives its socket. Every broadcast of the site is a snapshot
# that a client can ask for again (``sync``), so at-most-once delivery is enough.
REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYERS: dict[str, dict[str, Any]]
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "core.redis_layer.ResilientRedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "tripeaks"},
        },
    }
    # The cache holds the public API's rate counters and its short-lived answers (api/): a Redis
    # that stops answering must cost a request a second at most, not hang it (the API then serves
    # without them).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tripeaks",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "core.layers.InProcessChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts. Axes' backend comes first: it refuses a locked-out sign-in before any password check.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile"
LOGOUT_REDIRECT_URL = "game:home"
# Sessions in the database, as Django's own engine, also noting whose they are, so that deleting
# an account can end every session it is signed in on.
SESSION_ENGINE = "accounts.sessions"

# Throttling sign-in: five wrong passwords for one username from one address lock that pair for
# fifteen minutes. Locking the pair, not the username alone, keeps an attacker from locking a
# player out everywhere; not the address alone, so one café's wifi does not lock each other out.
# Behind a proxy, Daphne must run with --proxy-headers so that REMOTE_ADDR is the player's address.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A locked-out player who keeps trying does not push the end of the cool-off further away.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
# Successful sign-ins are not logged: the failures that throttling needs are enough to keep.
AXES_DISABLE_ACCESS_LOG = True

# Mail (password resets): printed on the console unless an SMTP server is configured.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "TriPeaks Online <noreply@localhost>")

# Languages (docs/translations.md): English, and French from locale/. A request's language comes
# from the language cookie the footer's switcher sets, then Accept-Language, else English. The
# compiled catalogs (.mo) are committed, so the site runs without gettext installed.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# `collectstatic` (the image runs it) writes each file also under a name with its content's hash,
# rewrites the CSS and JS references between files to those names, and writes .gz copies beside
# them (tripeaks_site/storage.py); pages link the hashed names through the manifest it writes, so
# the proxy serves them precompressed and cached for a year. With DEBUG on, pages link the plain
# names, served from static/ by Daphne itself (tripeaks_site/asgi.py): no collectstatic needed.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "tripeaks_site.storage.HashedStaticFilesStorage"},
}
# WhiteNoise's middleware is not used: in every deployment of the site nginx serves /static/ from
# STATIC_ROOT before a request reaches Daphne. The middleware is synchronous only, so under Daphne
# it would add two thread hops to every page request (about +0.5 ms each, measured on a noisy
# machine) for files no request asks of it; a Daphne with DEBUG off and no proxy in front serves
# the pages but not their static files.

# Security. Production sits behind a TLS-terminating proxy that sets X-Forwarded-Proto.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Health checks and metrics come from inside, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# An outage of the database is logged once when it begins and once when it ends, not as a
# traceback per request or move (core/outages.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"outages": {"()": "core.outages.OutageLogFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["outages"]}},
    # The connection pool warns at every failed attempt to reconnect during an outage.
    "loggers": {"psycopg.pool": {"level": "ERROR"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# The game's websocket: messages a connection may send per second on average, and in a burst.
GAME_SOCKET_RATE = float(os.environ.get("GAME_SOCKET_RATE", "20"))
GAME_SOCKET_BURST = int(os.environ.get("GAME_SOCKET_BURST", "40"))

# Scheduled work (docs/operations.md): each web process runs the apps' periodic jobs (closing and
# making the daily challenges) beside its analysis loop. 0 keeps a process from starting them.
SCHEDULED_WORK = env_bool("SCHEDULED_WORK", True)

# Analyses under load (docs/operations.md, Post-game analysis): while its web process keeps more
# than ANALYSIS_YIELD_SHARE of a core busy, the analysis loop holds its next batch back, for at
# most ANALYSIS_YIELD_SECONDS: the moves come first, and analyses still go on.
ANALYSIS_YIELD_SHARE = float(os.environ.get("ANALYSIS_YIELD_SHARE", "0.6"))
ANALYSIS_YIELD_SECONDS = float(os.environ.get("ANALYSIS_YIELD_SECONDS", "5"))

# Races (docs/races.md): seconds of countdown between the host's start and the first move.
RACE_COUNTDOWN_SECONDS = float(os.environ.get("RACE_COUNTDOWN_SECONDS", "5"))

# Moderation (docs/moderation.md): when a finished game is flagged for the moderators' queue.
# Flags never hide anything by themselves. Inhumanly fast play: a median gap between moves below
# MODERATION_FAST_MEDIAN_MS over at least MODERATION_FAST_MIN_MOVES moves, or
# MODERATION_BURST_MOVES moves within MODERATION_BURST_MS.
MODERATION_FAST_MEDIAN_MS = int(os.environ.get("MODERATION_FAST_MEDIAN_MS", "300"))
MODERATION_FAST_MIN_MOVES = int(os.environ.get("MODERATION_FAST_MIN_MOVES", "20"))
MODERATION_BURST_MOVES = int(os.environ.get("MODERATION_BURST_MOVES", "10"))
MODERATION_BURST_MS = int(os.environ.get("MODERATION_BURST_MS", "1000"))
# Perfect play on hard deals: par reached on MODERATION_PERFECT_RUN of the player's last
# MODERATION_PERFECT_WINDOW finished games, on deals that are hard: the nowrap variant, a par
# line of at least MODERATION_HARD_PAR_MOVES moves, or a daily deal on which at least
# MODERATION_HARD_MIN_OTHERS other players' median share of par is below MODERATION_HARD_SHARE.
MODERATION_PERFECT_RUN = int(os.environ.get("MODERATION_PERFECT_RUN", "3"))
MODERATION_PERFECT_WINDOW = int(os.environ.get("MODERATION_PERFECT_WINDOW", "10"))
MODERATION_HARD_PAR_MOVES = int(os.environ.get("MODERATION_HARD_PAR_MOVES", "49"))
MODERATION_HARD_SHARE = float(os.environ.get("MODERATION_HARD_SHARE", "0.75"))
MODERATION_HARD_MIN_OTHERS = int(os.environ.get("MODERATION_HARD_MIN_OTHERS", "5"))
# Players' reports of a score: how many one player may file in an hour.
MODERATION_REPORTS_PER_HOUR = int(os.environ.get("MODERATION_REPORTS_PER_HOUR", "10"))

# The public API (api/, docs/api.md): requests one address may make a minute (0: no limit), and
# how long, in seconds, its answers are kept in the cache and by clients (0: not at all).
API_RATE_PER_MINUTE = int(os.environ.get("API_RATE_PER_MINUTE", "60"))
API_CACHE_SECONDS = int(os.environ.get("API_CACHE_SECONDS", "10"))
