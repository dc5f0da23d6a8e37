"""The settings module: production checks, safe defaults, and the services it selects."""

import asyncio
import os
import secrets
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a fresh process with the real settings module and the given environment."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    clean |= {"DJANGO_SETTINGS_MODULE": "tripeaks_site.settings"} | env
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_settings_pass_the_deploy_check() -> None:
    """With DEBUG off, a real secret key and allowed hosts, `check --deploy` finds nothing."""
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="tripeaks.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_development_settings_fail_the_deploy_check() -> None:
    """The deploy check is not a formality: the development defaults do not pass it."""
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1")
    assert result.returncode != 0


def test_production_without_a_secret_key_refuses_to_start() -> None:
    """With DEBUG off and no SECRET_KEY, the site stops with a message saying what to set."""
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_a_malformed_boolean_is_refused() -> None:
    """DEBUG=maybe is an error, not silently false."""
    result = run_manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


@pytest.mark.django_db
def test_the_configured_database_answers() -> None:
    """The suite talks to the database that DATABASE_URL selects (SQLite when unset)."""
    expected = (
        "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    )
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 + 1")
        assert cursor.fetchone() == (2,)


def test_the_channel_layer_carries_a_group_message() -> None:
    """A message sent to a group reaches a channel in it, through Redis when REDIS_URL is set."""
    layer = get_channel_layer()
    assert layer is not None
    expected_backend = (
        "ResilientRedisChannelLayer" if os.environ.get("REDIS_URL") else "InProcessChannelLayer"
    )
    assert type(layer).__name__ == expected_backend
    group = f"settings-test-{uuid.uuid4().hex}"

    async def round_trip() -> dict[str, object]:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        await layer.group_send(group, {"type": "ping.test", "n": 7})
        message = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.group_discard(group, channel)
        return dict(message)

    assert async_to_sync(round_trip)() == {"type": "ping.test", "n": 7}


def test_the_cache_stores_and_expires_values() -> None:
    """The cache that REDIS_URL selects (process memory otherwise) keeps what it is given."""
    key = f"settings-test-{uuid.uuid4().hex}"
    cache.set(key, {"score": 120}, timeout=30)
    assert cache.get(key) == {"score": 120}
    cache.delete(key)
    assert cache.get(key) is None
