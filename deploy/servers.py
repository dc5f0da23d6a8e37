"""Servers of the production topology that a test may stop, start and freeze: a private Redis,
and a private PostgreSQL cluster (on ports of their own, so that nobody else's is touched)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from deploy.processes import (
    HOST,
    START_TIMEOUT,
    STOP_TIMEOUT,
    ProcessError,
    free_port,
    spawn,
    stop_process,
    wait_for_port,
)

POSTGRES_BIN: Final = Path("/usr/lib/postgresql")


@dataclass
class Redis:
    """A private Redis server (nothing kept on disk), on a port of its own."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        log = self.directory / f"redis-{self.port}.log"
        command = [
            "redis-server",
            "--bind",
            HOST,
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.directory),
        ]
        self.process = spawn(command, log=log)
        wait_for_port(self.process, self.port, log)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def command(self, *words: str) -> str:
        """Run a redis-cli command against this server; return what it printed."""
        result = subprocess.run(
            ["redis-cli", "-h", HOST, "-p", str(self.port), *words],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return result.stdout.strip()


def postgres_bin() -> Path:
    """The newest PostgreSQL server's programs Debian installed."""
    versions = sorted(POSTGRES_BIN.iterdir(), key=lambda path: int(path.name))
    return versions[-1] / "bin"


def postgres_user() -> str | None:
    """PostgreSQL's programs refuse to run as root: run them as the postgres user then."""
    return "postgres" if os.geteuid() == 0 else None


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster of its own (trust auth, on a free port), to stop, start and freeze.

    It lives in a directory of its own under the system's temporary directory, which the
    ``postgres`` user can reach when this runs as root (PostgreSQL will not run as root);
    :meth:`destroy` stops it and removes that directory. fsync is off: these clusters hold only
    what a test makes, and the faults under test are the server stopping or hanging, not the
    machine losing power.
    """

    directory: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="tripeaks-pg-")))
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def data(self) -> Path:
        return self.directory / f"pgdata-{self.port}"

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@{HOST}:{self.port}/{database}"

    def create(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        subprocess.run(
            [
                str(postgres_bin() / "initdb"),
                *("-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync"),
                *("-E", "UTF8", "--locale=C"),
            ],
            check=True,
            capture_output=True,
            user=postgres_user(),
            group=postgres_user(),
        )

    def start(self) -> None:
        if not self.data.exists():
            self.create()
        log = self.directory / f"postgres-{self.port}.log"
        if os.geteuid() == 0:
            log.touch()
            shutil.chown(log, "postgres")
        command = [
            str(postgres_bin() / "postgres"),
            *("-D", str(self.data), "-p", str(self.port), "-h", HOST, "-k", str(self.directory)),
            *("-c", "fsync=off", "-c", "max_connections=100"),
        ]
        self.process = spawn(command, log=log, user=postgres_user())
        wait_for_port(self.process, self.port, log)
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            ready = subprocess.run(
                ["pg_isready", "-h", HOST, "-p", str(self.port), "-q"], check=False
            )
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        raise ProcessError(f"PostgreSQL on {self.port} did not become ready")

    def stop(self) -> None:
        """A fast shutdown (SIGINT): connections are cut, as when the server is restarted."""
        if self.process is not None:
            self.thaw()
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def _pids(self) -> list[int]:
        """The postmaster and every process it forked (each backend starts a process group of
        its own, so they are found as its children)."""
        assert self.process is not None
        children = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
        )
        return [self.process.pid, *(int(pid) for pid in children.stdout.split())]

    def freeze(self) -> None:
        """Stop every process of the server (SIGSTOP): connections stay open, nothing answers."""
        for pid in self._pids():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self._pids():
            os.kill(pid, signal.SIGCONT)

    def createdb(self, name: str) -> None:
        subprocess.run(
            ["createdb", "-h", HOST, "-p", str(self.port), "-U", "postgres", name],
            check=True,
            capture_output=True,
        )
