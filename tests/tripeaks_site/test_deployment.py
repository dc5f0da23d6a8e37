"""The production deployment: the compose file, the image and the proxy wire the site together.

No Docker engine runs on the test machines, so these tests read the files the way Compose and
nginx would and check what each service is given.
"""

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def web_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services built from the image with its default command: the Daphne processes."""
    return {
        name: service
        for name, service in compose["services"].items()
        if "build" in service and "command" not in service
    }


def test_two_web_processes_share_postgresql_and_redis(compose: dict[str, Any]) -> None:
    """At least two Daphne services, each pointed at the compose file's own db and redis."""
    webs = web_services(compose)
    assert len(webs) >= 2
    for service in webs.values():
        environment = service["environment"]
        assert environment["DEBUG"] == "0"
        assert re.fullmatch(r"postgres://[^@]+@db:5432/\w+", environment["DATABASE_URL"])
        assert environment["REDIS_URL"] == "redis://redis:6379/0"
        assert "SECRET_KEY" in environment
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "/readyz" in " ".join(service["healthcheck"]["test"])


def test_every_long_running_service_has_a_health_check(compose: dict[str, Any]) -> None:
    one_off = {"migrate", "static"}
    for name, service in compose["services"].items():
        if name not in one_off:
            assert "healthcheck" in service, name


def test_the_proxy_is_the_only_public_port_and_reaches_every_web_process(
    compose: dict[str, Any],
) -> None:
    """nginx publishes ports 80 and 443 (with the certificate mounted), upgrades websockets and
    balances over every web service; static files come from the volume collectstatic filled."""
    published = [name for name, service in compose["services"].items() if "ports" in service]
    assert published == ["proxy"]
    config = (ROOT / "deploy" / "nginx.conf").read_text()
    mount = next(v for v in compose["services"]["proxy"]["volumes"] if "nginx.conf" in v)
    assert mount.startswith("./deploy/nginx.conf:")
    upstream = re.search(r"upstream tripeaks_web \{(.*?)\}", config, re.S)
    assert upstream is not None
    servers = set(re.findall(r"server (\w+):8000", upstream.group(1)))
    assert servers == set(web_services(compose))
    proxy = compose["services"]["proxy"]
    assert sorted(proxy["ports"]) == ["443:443", "80:80"]
    assert any(volume.endswith(":/etc/nginx/tls:ro") for volume in proxy["volumes"])
    assert "static:/srv/static:ro" in proxy["volumes"]
    assert "proxy_set_header Upgrade $http_upgrade;" in config
    assert re.search(r"location /static/ \{\s*root /srv;", config)


def test_the_image_serves_with_daphne_behind_the_proxy() -> None:
    """The image runs Daphne with proxy headers and websocket size limits, as make run does."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    command = re.search(r"CMD \[(.*?)\]", dockerfile, re.S)
    assert command is not None
    words = re.findall(r'"([^"]+)"', command.group(1))
    assert words[0] == "daphne"
    assert "--proxy-headers" in words
    assert "--websocket-max-message-size" in words
    assert words[-1] == "tripeaks_site.asgi:application"
    assert "collectstatic" in dockerfile


@pytest.mark.django_db
def test_the_health_check_answers(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]
