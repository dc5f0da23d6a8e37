"""Lighthouse's four scores (performance, accessibility, best practices, SEO) of the site's main
pages, on a phone (Lighthouse's mobile run: a throttled network and CPU) and on a desktop.

Runs the production topology (``deploy/topology.py``: nginx in front of two web processes
started as the image starts them, ``DEBUG=0``, static files collected with the production storage,
hashed and gzipped, served by nginx) on a database of its own, made afresh. A visitor signs up and
starts three games through the site: one left new, one three moves in, one played to its end (its
page is then the replay). Lighthouse 12 (the version in package-lock.json, run by
``bench/lighthouse-run.mjs``) then loads each page in Debian's Chromium (``CHROME_PATH``) with that
visitor's session: the home page, the three games, the daily challenge, the leaderboards, the races
and the profile.

    .venv/bin/python bench/lighthouse.py [--pages home,game-new,...] [--form-factors mobile,desktop]
                                         [--save-reports DIR] [--smoke]

Prints one row per page and form factor, and under it the audits that did not pass. Needs
PostgreSQL (the database comes from ``bench/environment.py``: ``lighthouse_<bench database>``),
Debian's nginx and chromium, redis-server, Node and ``npm ci``. Prints figures only; nothing here
passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.environment import (
    bench_database_url,
    database_create,
    database_name,
    with_database,
    without_password,
)
from bench.options import arguments
from deploy.clients import Visitor, game_player
from deploy.processes import ROOT
from deploy.topology import Topology, production

CHROMIUM = "/usr/bin/chromium"
RUNNER = ROOT / "bench" / "lighthouse-run.mjs"
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
PAGES = [
    "home", "game-new", "game-mid", "game-over", "daily", "leaderboards", "races", "profile",
]  # fmt: skip
FIXED_PATHS = {
    "home": "/",
    "daily": "/daily/",
    "leaderboards": "/leaderboards/",
    "races": "/races/",
    "profile": "/accounts/profile/",
}
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
RUN_TIMEOUT = 900.0


@dataclass(frozen=True)
class Scores:
    page: str
    form_factor: str
    scores: dict[str, int]
    failing: list[str]
    error: str | None = None
    tries: int = 1
    """Runs it took: a run whose trace Lighthouse failed to record is run again."""


def lighthouse_database_url() -> str:
    """A database of this bench's own, beside the bench database."""
    bench = bench_database_url()
    return with_database(bench, f"lighthouse_{database_name(bench)}")


def visitor_with_games(topology: Topology, wanted: list[str]) -> tuple[Visitor, dict[str, str]]:
    """A visitor signed up through the site, and the paths of the pages in ``wanted``: its games
    started with the home page's form and played over the game's websocket, as the page does."""
    visitor = Visitor(topology)
    password = secrets.token_urlsafe(16)
    signed_up = visitor.post_form(
        "/accounts/signup/",
        {"username": "lighthouse", "password1": password, "password2": password},
    )
    if signed_up.status not in (302, 303) or "sessionid" not in visitor.cookies:
        raise SystemExit(f"could not sign up: {signed_up.status} {signed_up.text[:300]}")
    paths = {name: path for name, path in FIXED_PATHS.items() if name in wanted}
    moves = {"game-new": 0, "game-mid": 3, "game-over": None}
    for name in (name for name in ("game-over", "game-mid", "game-new") if name in wanted):
        game_id = visitor.game_start()
        if moves[name] != 0:
            player = game_player(topology, game_id, visitor.cookies["sessionid"])
            asyncio.run(player.play(moves=moves[name]))
        paths[name] = f"/games/{game_id}/"
    if "daily" in wanted:
        # The day's challenge is made on its page's first visit (the solver proves its deal): not
        # while Lighthouse measures.
        visitor.get("/daily/")
    return visitor, paths


def run_lighthouse(
    topology: Topology,
    visitor: Visitor,
    paths: dict[str, str],
    form_factors: list[str],
    save_dir: Path | None = None,
) -> list[Scores]:
    runs = [
        {"name": name, "url": f"{topology.url}{path}", "formFactor": form_factor}
        for form_factor in form_factors
        for name, path in paths.items()
    ]
    cookies = [
        {"name": name, "value": value, "url": topology.url}
        for name, value in visitor.cookies.items()
    ]
    finished = subprocess.run(
        ["node", str(RUNNER)],
        input=json.dumps(
            {"cookies": cookies, "runs": runs, "saveDir": str(save_dir) if save_dir else None}
        ),
        capture_output=True,
        text=True,
        env={**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)},
        timeout=RUN_TIMEOUT,
        check=False,
    )
    if finished.returncode != 0:
        raise SystemExit(f"Lighthouse failed ({finished.returncode}):\n{finished.stderr[-3000:]}")
    results = []
    for line in finished.stdout.splitlines():
        found = json.loads(line)
        results.append(
            Scores(found["name"], found["formFactor"], found["scores"], found["failing"],
                   found.get("error"), found.get("tries", 1))
        )  # fmt: skip
    return results


def report(results: list[Scores], database: str, seconds: dict[str, float]) -> None:
    version = json.loads((LIGHTHOUSE / "package.json").read_text())["version"]
    print(f"Lighthouse {version}, {os.environ.get('CHROME_PATH', CHROMIUM)}; DEBUG=0 behind nginx")
    print(f"database: {without_password(database)}")
    print("seconds: " + ", ".join(f"{name} {value:.0f}" for name, value in seconds.items()))
    print(f"{'page':<14} {'form factor':<12} {'performance':>12} {'accessibility':>14}"
          f" {'best practices':>15} {'seo':>5}")  # fmt: skip
    for result in results:
        s = result.scores
        print(
            f"{result.page:<14} {result.form_factor:<12} {s['performance']:>12}"
            f" {s['accessibility']:>14} {s['best-practices']:>15} {s['seo']:>5}"
        )
    for result in results:
        if result.error:
            print(f"  {result.page} ({result.form_factor}): error: {result.error}")
        if result.tries > 1:
            print(f"  {result.page} ({result.form_factor}): measured on try {result.tries}")
        if result.failing:
            print(f"  {result.page} ({result.form_factor}) below 100: {', '.join(result.failing)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pages", default=",".join(PAGES), help=f"pages to score, of {', '.join(PAGES)}"
    )
    parser.add_argument("--form-factors", default="mobile,desktop", help="mobile, desktop or both")
    parser.add_argument(
        "--save-reports", type=Path, help="a directory to write each whole report to, as JSON"
    )
    args = arguments(parser, {"pages": "home"}, argv)
    wanted = [name for name in args.pages.split(",") if name]
    unknown = set(wanted) - set(PAGES)
    if unknown:
        parser.error(f"unknown pages: {', '.join(sorted(unknown))}")
    if not (LIGHTHOUSE / "package.json").exists():
        raise SystemExit("node_modules/lighthouse is missing: run `npm ci` (make test does)")
    database = lighthouse_database_url()
    database_create(database, replace=True)
    seconds: dict[str, float] = {}
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="tripeaks-lighthouse-") as directory,
        production(
            Path(directory),
            database_url=database,
            secret_key=secrets.token_urlsafe(50),
            run_migrations=True,
            extra_env={"LOG_LEVEL": "WARNING"},
        ) as topology,
    ):
        seconds["topology"] = time.monotonic() - started
        visitor, paths = visitor_with_games(topology, wanted)
        seconds["games"] = time.monotonic() - started - seconds["topology"]
        ordered = {name: paths[name] for name in wanted}
        if args.save_reports:
            args.save_reports.mkdir(parents=True, exist_ok=True)
        results = run_lighthouse(
            topology, visitor, ordered, args.form_factors.split(","), args.save_reports
        )
        seconds["lighthouse"] = time.monotonic() - started - seconds["topology"] - seconds["games"]
    report(results, database, seconds)


if __name__ == "__main__":
    main()
