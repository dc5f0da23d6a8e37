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
"""

import hashlib
import hmac
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

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
    "game",
    "accounts",
    "leaderboard",
    "races",
    "spectate",
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the request: a NUL byte in its URL or a header is a 400 (PostgreSQL
    # refuses NUL in text).
    "tripeaks_site.middleware.RefuseNulBytes",
    "django.contrib.sessions.middleware.SessionMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: SQLite by default, anything dj-database-url understands otherwise. Connections are
# kept open between requests and checked before reuse.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        conn_health_checks=True,
    ),
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: Redis when REDIS_URL is set, process-local otherwise. The channel layer
# is channels_redis' pub/sub one: a group message is one PUBLISH whatever the group's size, and each
# process receives on one subscription (measured by bench/races.py: two processes, ten rooms of
# eight racers, the core layer's p50 was 200 ms, this one's 9 ms). Every broadcast of the site is a
# snapshot that a client can ask for again (``sync``), so at-most-once delivery is enough.
REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYERS: dict[str, dict[str, Any]]
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "tripeaks"},
        },
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tripeaks",
        },
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "tripeaks_site.layers.InProcessChannelLayer"}}
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

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))

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
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # health checks come from inside, over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# The game's websocket: messages a connection may send per second on average, and in a burst.
GAME_SOCKET_RATE = float(os.environ.get("GAME_SOCKET_RATE", "20"))
GAME_SOCKET_BURST = int(os.environ.get("GAME_SOCKET_BURST", "40"))

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
