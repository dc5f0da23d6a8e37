"""The production topology on one machine: nginx before two Daphne processes, PostgreSQL, Redis.

It runs what the image and the compose file run, from the same files, without Docker:

- each web process is the image's own command (the Dockerfile's ``CMD``), with only its address
  and port changed, ``DEBUG=0`` and the production settings module;
- nginx is Debian's, serving ``deploy/nginx.conf`` with only the names of other machines changed:
  the web processes' addresses, the static files' directory and the TLS certificate's files (a
  self-signed one made for the run), and the ports it listens on;
- static files are collected with the production storage, as the image does;
- Redis is a private server on a free port, so that a test may stop and start it. PostgreSQL is
  any database (``DATABASE_URL``), or a private cluster (``deploy.servers.PrivatePostgres``) that a
  test may stop, start and freeze without touching anyone else's.

Run it by hand (``make topology``, or ``python -m deploy.topology --help``): it migrates the
database, starts everything and prints the site's address. The tests under ``tests/deploy/`` drive
the same classes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from deploy.processes import (
    HOST,
    ROOT,
    ProcessError,
    free_port,
    log_tail,
    spawn,
    stop_process,
    wait_for_port,
)
from deploy.servers import Redis

NGINX: Final = "/usr/sbin/nginx"


def image_command() -> list[str]:
    """The Dockerfile's ``CMD``: how the image starts a web process."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    found = re.search(r"^CMD (\[.*?\])\s*$", dockerfile, re.S | re.M)
    if found is None:
        raise ProcessError("The Dockerfile has no CMD in exec form")
    command: list[str] = json.loads(found.group(1).replace("\\\n", " "))
    return command


def web_command(port: int) -> list[str]:
    """The image's command, listening on ``port`` of loopback, run from this environment."""
    command = image_command()
    replaced = {"--bind": HOST, "-b": HOST, "--port": str(port), "-p": str(port)}
    result = [str(Path(sys.executable).parent / command[0])]
    words = iter(command[1:])
    for word in words:
        result.append(word)
        if word in replaced:
            next(words)
            result.append(replaced[word])
    return result


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, and its key, valid for two days."""
    certificate, key = directory / "fullchain.pem", directory / "privkey.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


def nginx_site(
    *,
    web_ports: list[int],
    http_port: int,
    https_port: int,
    static_root: Path,
    certificate: Path,
    key: Path,
) -> str:
    """``deploy/nginx.conf`` with the names of other machines replaced by this machine's; with
    fewer web processes than it names (a bench's one-process baseline), the others left out."""
    config = (ROOT / "deploy" / "nginx.conf").read_text()
    servers = re.findall(r"server (web\d+):8000", config)
    if not 0 < len(web_ports) <= len(servers):
        raise ProcessError(f"nginx.conf names {len(servers)} web processes, not {len(web_ports)}")
    for name, port in zip(servers, web_ports, strict=False):
        config = config.replace(f"server {name}:8000", f"server {HOST}:{port}")
    for name in servers[len(web_ports) :]:
        config = re.sub(rf"\n[ \t]*server {name}:8000[^\n]*", "", config)
    replacements = {
        "listen 80;": f"listen {HOST}:{http_port};",
        "listen 443 ssl;": f"listen {HOST}:{https_port} ssl;",
        "https://$host$request_uri": f"https://$host:{https_port}$request_uri",
        "/etc/nginx/tls/fullchain.pem": str(certificate),
        "/etc/nginx/tls/privkey.pem": str(key),
        "root /srv;": f"root {static_root.parent};",
    }
    for old, new in replacements.items():
        if old not in config:
            raise ProcessError(f"nginx.conf no longer has {old!r}: update deploy/topology.py")
        config = config.replace(old, new)
    return config


def nginx_main(site: Path, directory: Path) -> str:
    """The top of an nginx configuration, as Debian's /etc/nginx/nginx.conf would be, around the
    site (run as root, the workers stay root so that they may read the test's private files)."""
    user = "user root root;\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format upstreams '$status $upstream_addr "$request"';
    access_log {directory}/nginx-access.log upstreams;
    client_body_temp_path {directory}/client_body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    include {site};
}}
"""


@dataclass
class Web:
    """One web process, started as the image starts it."""

    port: int
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.launch()
        self.wait()

    def launch(self) -> None:
        """Start the process without waiting for it to listen (start several at once)."""
        self.process = spawn(web_command(self.port), log=self.log, env=self.env)

    def wait(self) -> None:
        assert self.process is not None
        wait_for_port(self.process, self.port, self.log)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def kill(self) -> None:
        """``kill -9``: the process dies at once, mid-whatever."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Topology:
    """Everything running: use :func:`production`."""

    directory: Path
    webs: list[Web]
    redis: Redis
    http_port: int
    https_port: int
    static_root: Path
    certificate: Path | None = None
    nginx: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The site's address, over TLS through nginx (no trailing slash)."""
        return f"https://{HOST}:{self.https_port}"

    @property
    def plain_url(self) -> str:
        return f"http://{HOST}:{self.http_port}"

    @property
    def ws_url(self) -> str:
        return f"wss://{HOST}:{self.https_port}"

    def upstreams(self, fragment: str) -> list[int]:
        """The web processes' ports that nginx sent requests for paths containing ``fragment``
        (a websocket's request is logged once it has closed)."""
        ports = []
        for line in (self.directory / "nginx-access.log").read_text().splitlines():
            _status, upstream, request = line.split(" ", 2)
            if fragment in request and upstream != "-":
                ports.append(int(upstream.rsplit(":", 1)[1]))
        return ports

    def web_logs(self) -> str:
        return "\n".join(f"--- {web.log.name}\n{log_tail(web.log)}" for web in self.webs)

    def web_log_marks(self) -> list[int]:
        """Where each web process's log ends now (see :meth:`web_logs_since`)."""
        return [web.log.stat().st_size if web.log.exists() else 0 for web in self.webs]

    def web_logs_since(self, marks: list[int]) -> list[str]:
        """What each web process has logged since ``marks`` (from :meth:`web_log_marks`)."""
        logs = []
        for web, mark in zip(self.webs, marks, strict=True):
            with web.log.open("rb") as log:
                log.seek(mark)
                logs.append(log.read().decode(errors="replace"))
        return logs


def production_env(
    *,
    database_url: str,
    redis_url: str,
    static_root: Path,
    secret_key: str,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of a web process in production (as docker-compose.yml gives it)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DEBUG", "PYTEST", "DATABASE_URL", "REDIS_URL"))
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=secret_key,
        ALLOWED_HOSTS="localhost,127.0.0.1",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        STATIC_ROOT=str(static_root),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra or {})
    return env


def collectstatic(env: Mapping[str, str]) -> None:
    """Collect the static files as the image does, with the production storage."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=dict(env),
        check=True,
        capture_output=True,
    )


def migrate(env: Mapping[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=dict(env),
        check=True,
    )


@contextmanager
def production(
    directory: Path,
    *,
    database_url: str,
    secret_key: str,
    webs: int = 2,
    extra_env: Mapping[str, str] | None = None,
    run_migrations: bool = False,
) -> Iterator[Topology]:
    """Start Redis, the web processes and nginx in front of them; stop everything afterwards."""
    directory.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        redis = Redis(directory)
        redis.start()
        stack.callback(redis.stop)
        static_root = directory / "static"
        env = production_env(
            database_url=database_url,
            redis_url=redis.url,
            static_root=static_root,
            secret_key=secret_key,
            extra=extra_env,
        )
        if run_migrations:
            migrate(env)
        collectstatic(env)
        topology = Topology(
            directory=directory,
            webs=[
                Web(port=port, env=env, log=directory / f"web-{port}.log")
                for port in (free_port() for _ in range(webs))
            ],
            redis=redis,
            http_port=free_port(),
            https_port=free_port(),
            static_root=static_root,
        )
        for web in topology.webs:
            web.launch()
            stack.callback(web.stop)
        for web in topology.webs:
            web.wait()
        stack.callback(stop_nginx, topology)
        start_nginx(topology)
        yield topology


def start_nginx(topology: Topology) -> None:
    directory = topology.directory
    certificate, key = self_signed_certificate(directory)
    topology.certificate = certificate
    site = directory / "site.conf"
    site.write_text(
        nginx_site(
            web_ports=[web.port for web in topology.webs],
            http_port=topology.http_port,
            https_port=topology.https_port,
            static_root=topology.static_root,
            certificate=certificate,
            key=key,
        )
    )
    main = directory / "nginx.conf"
    main.write_text(nginx_main(site, directory))
    log = directory / "nginx.log"
    topology.nginx = spawn(
        [NGINX, "-p", str(directory), "-c", str(main), "-g", "daemon off;"], log=log
    )
    wait_for_port(topology.nginx, topology.https_port, directory / "nginx-error.log")


def stop_nginx(topology: Topology) -> None:
    if topology.nginx is not None:
        stop_process(topology.nginx)
        topology.nginx = None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tripeaks"),
        help="the PostgreSQL database to serve (migrated first); default: %(default)s",
    )
    parser.add_argument("--webs", type=int, default=2, help="web processes (default 2)")
    args = parser.parse_args(argv)
    if not args.database_url.startswith("postgres"):
        parser.error("the production topology runs on PostgreSQL: give a postgres:// URL")
    with (
        tempfile.TemporaryDirectory(prefix="tripeaks-topology-") as directory,
        production(
            Path(directory),
            database_url=args.database_url,
            secret_key=os.urandom(32).hex(),
            webs=args.webs,
            run_migrations=True,
        ) as topology,
    ):
        ports = ", ".join(str(web.port) for web in topology.webs)
        print(f"TriPeaks Online on {topology.url}/ (self-signed certificate)")
        print(f"web processes on {ports}; Redis on {topology.redis.port}; logs in {directory}")
        print("Ctrl-C stops everything.")
        try:
            signal.pause()
        except KeyboardInterrupt:
            print()


if __name__ == "__main__":
    main()
