"""Settings for the test suite: the site's own settings, with a test-only secret key."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-any-real-site")

from tripeaks_site.settings import *  # noqa: F403
from tripeaks_site.settings import BASE_DIR, DATABASES, STORAGES

# Hashing passwords slowly protects real accounts; test accounts only slow the suite.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The test servers speak plain HTTP on loopback; the production values are checked by
# tests/tripeaks_site/test_settings.py against the real settings module.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False

# Pages link the plain static names: the suite runs with DEBUG off but without collectstatic, so
# there is no manifest of hashed names (tests/tripeaks_site/test_static.py runs the real storage).
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# A SQLite test database lives in a file, so that a Daphne process started by the browser tests
# can share it with the test process. (PostgreSQL test databases are shared by nature.)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Named per process, so that two test runs in one checkout never share (and lock) one file.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}

# Threads that Channels and the live-game cache start must not hold connections past a test: the
# test database is dropped at the end of the run, which a pool's idle connections would prevent.
# The suite's own process therefore connects without the pool; the production topology's tests
# (tests/deploy/) run web processes with the production settings, pool included.
# Nor does it cap statements: dropping the test database at the end waits for the last servers'
# sessions to go, which may take longer than production's statement timeout.
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)
DATABASES["default"].get("OPTIONS", {}).pop("options", None)

# Tests play whole games as fast as the machine allows; the rate-limit test sets its own limits.
GAME_SOCKET_RATE = 10_000.0
GAME_SOCKET_BURST = 10_000

# The suite asks the API far faster than anyone may; the throttling tests set their own limit.
API_RATE_PER_MINUTE = 0

# Each web process makes the coming days' challenges by itself (core.scheduled): in the suite's
# processes that would solve three deals in the middle of tests about other things. The tests of
# scheduled work start the jobs themselves.
SCHEDULED_WORK = False
