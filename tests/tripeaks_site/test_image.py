"""The image's install, replayed without Docker (no Docker engine runs on the test machines).

The files the image gets are worked out as `docker build` would: the build context less what
.dockerignore keeps out, placed by the Dockerfile's COPY lines under its WORKDIR. They are copied
into a temporary directory, a fresh virtual environment installs them with the Dockerfile's own
RUN steps (`pip install .` from the copy, dependencies from the package index as in the image;
only pip's download cache is shared with this machine), and the site must then collect its
static files, pass `check --deploy` with production settings and import every module of every app.
"""

import json
import os
import re
import shlex
import subprocess
import venv
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]
# What the image's build runs may take: mostly pip downloading or unpacking the dependencies.
STEP_TIMEOUT = 600
IMAGE_ROOT = PurePosixPath("/")

pytestmark = pytest.mark.image


@dataclass
class Dockerfile:
    """The instructions of the Dockerfile that decide the image's files and build steps."""

    workdir: PurePosixPath = IMAGE_ROOT
    env: dict[str, str] = field(default_factory=dict)
    copies: list[tuple[list[str], str]] = field(default_factory=list)
    run_steps: list[str] = field(default_factory=list)


def instructions(text: str) -> list[tuple[str, str]]:
    """(KEYWORD, arguments) for each instruction, continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    result = []
    for line in logical:
        keyword, _, arguments = line.partition(" ")
        result.append((keyword.upper(), arguments.strip()))
    return result


def read_dockerfile(path: Path) -> Dockerfile:
    """The WORKDIR, ENV, COPY and RUN instructions, refusing forms this replay does not model."""
    dockerfile = Dockerfile()
    for keyword, arguments in instructions(path.read_text()):
        if keyword == "WORKDIR":
            dockerfile.workdir = dockerfile.workdir / arguments
        elif keyword == "ENV":
            for word in shlex.split(arguments):
                name, equals, value = word.partition("=")
                assert equals, f"ENV {arguments!r}: only the NAME=value form is replayed"
                dockerfile.env[name] = value
        elif keyword == "COPY":
            words = shlex.split(arguments)
            assert not any(w.startswith("--") for w in words), f"COPY {arguments!r}: no flags"
            dockerfile.copies.append((words[:-1], words[-1]))
        elif keyword == "RUN":
            dockerfile.run_steps += [step.strip() for step in arguments.split("&&")]
        else:
            assert keyword in {"FROM", "USER", "EXPOSE", "CMD"}, f"{keyword} is not replayed"
    return dockerfile


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as a regular expression over a path relative to the context.

    As Docker reads them: `*` and `?` stay within one path segment, `**` spans any number of
    segments (`**/` also none), and a leading `/` is the context's root.
    """
    assert not pattern.startswith("!"), f"{pattern!r}: exceptions are not replayed"
    assert not set(pattern) & set("[]\\"), f"{pattern!r}: classes and escapes are not replayed"
    source, i = "", 0
    pattern = pattern.strip("/")
    while i < len(pattern):
        if pattern.startswith("**/", i):
            source, i = source + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            source, i = source + ".*", i + 2
        elif pattern[i] == "*":
            source, i = source + "[^/]*", i + 1
        elif pattern[i] == "?":
            source, i = source + "[^/]", i + 1
        else:
            source, i = source + re.escape(pattern[i]), i + 1
    return re.compile(source)


def read_dockerignore(path: Path) -> list[re.Pattern[str]]:
    lines = (line.strip() for line in path.read_text().splitlines())
    return [pattern_regex(line) for line in lines if line and not line.startswith("#")]


def is_ignored(relative: str, patterns: list[re.Pattern[str]]) -> bool:
    """Whether a path, or a directory above it, matches a pattern (so is not in the context)."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    return any(p.fullmatch(prefix) for p in patterns for prefix in prefixes)


def context_files(root: Path, patterns: list[re.Pattern[str]]) -> list[str]:
    """Every file of the build context, as paths relative to its root."""
    found = []
    for directory, subdirectories, files in os.walk(root):
        base = Path(directory).relative_to(root)
        subdirectories[:] = [
            d for d in subdirectories if not is_ignored((base / d).as_posix(), patterns)
        ]
        found += [
            (base / f).as_posix() for f in files if not is_ignored((base / f).as_posix(), patterns)
        ]
    return sorted(found)


def image_files(root: Path, dockerfile: Dockerfile) -> dict[str, str]:
    """The image's files under its WORKDIR (relative path there) and where each comes from."""
    context = context_files(root, read_dockerignore(root / ".dockerignore"))
    placed: dict[str, str] = {}
    for sources, destination in dockerfile.copies:
        target = (dockerfile.workdir / destination).relative_to(dockerfile.workdir)
        for source in sources:
            prefix = PurePosixPath(source).as_posix().strip("/")
            if prefix == ".":
                placed |= {str(target / f): f for f in context}
            elif prefix in context:
                name = PurePosixPath(prefix).name
                into = destination.endswith("/") or len(sources) > 1
                placed[str(target / name) if into else str(target)] = prefix
            else:
                inside = [f for f in context if f.startswith(prefix + "/")]
                assert inside, f"COPY {source}: nothing in the build context"
                placed |= {str(target / f[len(prefix) + 1 :]): f for f in inside}
    return {PurePosixPath(k).as_posix(): v for k, v in placed.items()}


def test_dockerignore_patterns_match_as_docker_matches_them() -> None:
    patterns = [pattern_regex(p) for p in ["tests", "**/*.pyc", "db.sqlite3*", "/build", "a/*/c"]]
    assert is_ignored("tests/game/test_engine.py", patterns)
    assert is_ignored("x.pyc", patterns)
    assert is_ignored("game/engine/__pycache__/x.pyc", patterns)
    assert is_ignored("db.sqlite3-journal", patterns)
    assert is_ignored("build/lib/game/__init__.py", patterns)
    assert is_ignored("a/b/c/d.txt", patterns)
    assert not is_ignored("game/tests.py", patterns)
    assert not is_ignored("game/db.sqlite3", patterns)
    assert not is_ignored("a/b/x/c", patterns)
    assert not is_ignored("game/build/x.py", patterns)


@pytest.fixture(scope="module")
def dockerfile() -> Dockerfile:
    return read_dockerfile(ROOT / "Dockerfile")


@pytest.fixture(scope="module")
def files(dockerfile: Dockerfile) -> dict[str, str]:
    return image_files(ROOT, dockerfile)


def project_apps() -> list[str]:
    """The installed apps that are this project's own packages."""
    return [c.name for c in apps.get_app_configs() if Path(c.path).parent == ROOT]


def checkout_files(directory: str) -> set[str]:
    """The files under a directory of this checkout, bytecode left out."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / directory).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_image_gets_every_app_and_no_development_files(files: dict[str, str]) -> None:
    names = set(files)
    assert {"manage.py", "pyproject.toml", "README.md"} <= names
    for directory in [*project_apps(), "tripeaks_site", "templates", "static"]:
        assert checkout_files(directory) <= names, directory
    kept_out = ("tests/", "bench/", ".git", ".venv/", "staticfiles/", "node_modules/", ".ci/")
    assert not [n for n in names if n.startswith(kept_out)]
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".sqlite3"))]
    assert not [n for n in names if ".egg-info/" in n or n == ".env"]


@dataclass
class Replay:
    """The image's file set, installed and built in a temporary directory."""

    workdir: Path
    python: Path
    env: dict[str, str]

    def run(self, command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            ["sh", "-c", command],
            cwd=cwd or self.workdir,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT,
            check=False,
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
        return result


# This machine's settings for reaching the package index (certificates, proxies, pip's options).
NETWORK_VARIABLE = re.compile(r"PIP_.*|.*(PROXY|SSL|CERT|CA_BUNDLE).*", re.IGNORECASE)


def image_environment(dockerfile: Dockerfile, root: Path, bin_dir: Path) -> dict[str, str]:
    """The Dockerfile's ENV, its absolute paths moved under `root`, and of this process' own
    environment only what reaches the package index: none of the site's settings leak in.

    The Dockerfile's PIP_* settings are left out: they tune pip's cache, not what it installs,
    and the cache keeps the replay fast.
    """
    env = {name: value for name, value in os.environ.items() if NETWORK_VARIABLE.fullmatch(name)}
    env |= {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": os.environ.get("HOME", str(root)),
        "LANG": "C.UTF-8",
    }
    for name, value in dockerfile.env.items():
        if not name.startswith("PIP_"):
            env[name] = f"{root}{value}" if value.startswith("/") else value
    return env


@pytest.fixture(scope="module")
def replay(
    dockerfile: Dockerfile, files: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Replay:
    """Copy the image's files, make a fresh venv, and run the Dockerfile's RUN steps there."""
    root = tmp_path_factory.mktemp("image")
    workdir = root / dockerfile.workdir.relative_to(IMAGE_ROOT)
    for name, source in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_bytes((ROOT / source).read_bytes())
    environment = root / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    bin_dir = environment / "bin"
    image = Replay(workdir, bin_dir / "python", image_environment(dockerfile, root, bin_dir))
    for step in dockerfile.run_steps:
        words = shlex.split(step)
        program = next(w for w in words if "=" not in w)
        if program == "useradd":
            continue  # the user the containers run as: no part of the installed files
        assert program in {"pip", "python"}, f"RUN step {step!r} is not replayed"
        image.run(step)
    return image


def test_the_build_installs_the_project_and_collects_static(
    dockerfile: Dockerfile, replay: Replay
) -> None:
    """The RUN steps are `pip install .` and collectstatic with the production settings."""
    steps = [" ".join(shlex.split(s)) for s in dockerfile.run_steps]
    assert "pip install ." in steps
    assert any("DEBUG=0" in s and s.endswith("manage.py collectstatic --noinput") for s in steps)
    static_root = Path(replay.env["STATIC_ROOT"])
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    assert re.fullmatch(r"js/game\.[0-9a-f]{12}\.js", manifest["js/game.js"])
    assert (static_root / f"{manifest['js/game.js']}.gz").is_file()


def test_production_settings_pass_the_deploy_check(replay: Replay) -> None:
    result = replay.run(
        "DEBUG=0 SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))')"
        " ALLOWED_HOSTS=tripeaks.example python manage.py check --deploy --fail-level WARNING"
    )
    assert "no issues" in result.stdout


IMPORT_EVERY_MODULE = """
import importlib, json, pkgutil, sys
import django
django.setup()
found = {}
for package in sys.argv[1:]:
    module = importlib.import_module(package)
    found[package] = module.__file__
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        if not info.name.endswith(".__main__"):  # a command line, run rather than imported
            found[info.name] = importlib.import_module(info.name).__file__
print(json.dumps(found))
"""


def import_every_module(replay: Replay, cwd: Path) -> dict[str, str]:
    """Import each module of each of the project's packages in the image's python, from `cwd`."""
    packages = [*project_apps(), "tripeaks_site"]
    command = shlex.join(["python", "-c", IMPORT_EVERY_MODULE, *packages])
    production = "DEBUG=0 SECRET_KEY=import-check DJANGO_SETTINGS_MODULE=tripeaks_site.settings"
    result = replay.run(f"{production} {command}", cwd=cwd)
    found: dict[str, str] = json.loads(result.stdout.splitlines()[-1])
    return found


def source_modules(package: str) -> set[str]:
    """The dotted names of a package's modules in this checkout."""
    names = set()
    for path in (ROOT / package).rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] != "__main__":
            names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_app_module_imports_from_the_image_copy(replay: Replay) -> None:
    """Run from the WORKDIR as the image runs, every module loads from there: the copy in use."""
    found = import_every_module(replay, replay.workdir)
    expected = set().union(*(source_modules(p) for p in [*project_apps(), "tripeaks_site"]))
    assert set(found) == expected
    assert not [file for file in found.values() if not Path(file).is_relative_to(replay.workdir)]


def test_the_installed_package_holds_every_app_module(replay: Replay) -> None:
    """From any other directory the same modules import from site-packages: `pip install .`
    packaged every app, with its migrations, template tags and commands."""
    site_packages = Path(
        subprocess.run(
            [replay.python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    found = import_every_module(replay, replay.workdir.parent)
    expected = set().union(*(source_modules(p) for p in [*project_apps(), "tripeaks_site"]))
    assert set(found) == expected
    assert site_packages.is_relative_to(replay.python.parent.parent)  # the fresh venv's own
    assert not [file for file in found.values() if not Path(file).is_relative_to(site_packages)]
