"""Server processes on this machine: free ports, starting, waiting until they listen, stopping.

One home for what the production topology (:mod:`deploy.topology`), the tests' servers
(``tests/servers.py``) and the benches' servers (``bench/servers.py``) all do.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
HOST: Final = "127.0.0.1"
START_TIMEOUT: Final = 30.0
STOP_TIMEOUT: Final = 10.0


class ProcessError(RuntimeError):
    """A server did not start: it exited, or never listened (the message has its log)."""


def free_port() -> int:
    """A TCP port on HOST that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def port_open(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


def log_tail(log: Path | None, lines: int = 60) -> str:
    if log is None or not log.exists():
        return "(no log)"
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def wait_for_port(process: subprocess.Popen[bytes], port: int, log: Path | None = None) -> None:
    """Return once ``process`` listens on ``port``; raise ProcessError with the end of its log if
    it exits first or has not listened within :data:`START_TIMEOUT` seconds (it is killed then)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ProcessError(
                f"{process.args!r} exited with status {process.returncode} before listening on"
                f" {port}:\n{log_tail(log)}"
            )
        if port_open(port):
            return
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise ProcessError(f"{process.args!r} did not listen on {port}:\n{log_tail(log)}")


def spawn(
    command: list[str],
    *,
    log: Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    user: str | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own (as ``user``, when this runs as root), its output
    appended to ``log`` (or this process's own output, without one)."""
    with contextlib.ExitStack() as stack:
        output = stack.enter_context(log.open("ab")) if log is not None else None
        return subprocess.Popen(
            command,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdout=output,
            stderr=subprocess.STDOUT if output is not None else None,
            start_new_session=True,
            user=user,
            group=user,
        )


def stop_process(process: subprocess.Popen[bytes], *, timeout: float = STOP_TIMEOUT) -> None:
    """Ask a process to stop (SIGTERM); kill it if it has not gone within ``timeout`` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
