"""Stopping the server processes that the benches and the tests start."""

import subprocess

STOP_TIMEOUT = 10.0


def process_stop(process: subprocess.Popen[bytes]) -> None:
    """Ask ``process`` to stop (SIGTERM); kill it if it has not gone within ten seconds."""
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
