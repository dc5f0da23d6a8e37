"""What Linux's /proc says about processes: a process's descendants, whether one is alive, the
CPU time it has used, and the whole machine's. For ``bench/moves.py`` (the analysis worker's share
of the CPU, and where the CPU goes behind nginx) and the test that a server's analysis worker dies
with it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

PROC: Final = Path("/proc")
CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (which may hold spaces), from
    the state on; None once the process is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text[text.rindex(")") + 2 :].split()


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie (dead, waiting to be reaped)."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def descendants(pid: int) -> list[int]:
    """The living processes whose ancestry leads to ``pid`` (children, their children, ...)."""
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if fields is not None and fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    pending = [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process itself has used so far; 0 once it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    # utime and stime: fields 14 and 15 of the whole line, 12 and 13 from the state on.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def named(command: str) -> list[int]:
    """The living processes whose command name (``/proc/<pid>/comm``) is ``command``."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if name == command and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def machine_busy_seconds() -> float:
    """The CPU seconds every core of the machine has spent on anything but idling, so far."""
    # The first line adds up every core: user nice system idle iowait irq softirq steal ...
    ticks = [int(f) for f in (PROC / "stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / CLOCK_TICKS
