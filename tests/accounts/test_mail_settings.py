"""Mail for password resets: printed on the console by default, SMTP when EMAIL_HOST is set."""

import json
import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, "
    "s.EMAIL_USE_SSL, s.EMAIL_HOST_USER, s.DEFAULT_FROM_EMAIL]))"
)


def mail_settings(**env: str) -> list[object]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEFAULT_FROM"))}
    clean |= {"DJANGO_SETTINGS_MODULE": "tripeaks_site.settings", "DEBUG": "1"} | env
    result = subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=PROJECT_ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    values: list[object] = json.loads(result.stdout.strip().splitlines()[-1])
    return values


def test_mail_goes_to_the_console_by_default() -> None:
    backend, host, *_ = mail_settings()
    assert backend == "django.core.mail.backends.console.EmailBackend"
    assert host == ""


def test_an_smtp_server_is_used_when_configured() -> None:
    assert mail_settings(
        EMAIL_HOST="smtp.example.org",
        EMAIL_HOST_USER="tripeaks",
        EMAIL_HOST_PASSWORD="secret",
        DEFAULT_FROM_EMAIL="TriPeaks <play@example.org>",
    ) == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        587,
        True,
        False,
        "tripeaks",
        "TriPeaks <play@example.org>",
    ]


def test_smtp_over_ssl() -> None:
    _, _, port, tls, ssl, *_ = mail_settings(
        EMAIL_HOST="smtp.example.org", EMAIL_PORT="465", EMAIL_USE_SSL="1"
    )
    assert (port, tls, ssl) == (465, False, True)
