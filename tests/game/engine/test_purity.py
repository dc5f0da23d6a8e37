"""The engine is pure Python: standard library only, no Django, no Channels, no ``random``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import game.engine

ENGINE_DIR = Path(game.engine.__file__).resolve().parent
ENGINE_FILES = sorted(ENGINE_DIR.rglob("*.py"))
FORBIDDEN = {"django", "channels"}
# The contract: deals come from the project's own generator, never from the random module.
DEAL_FILES = {"rng.py", "deal.py"}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in ``path``; relative imports resolve
    inside game.engine."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append((node.lineno, "game.engine"))
            elif node.module is not None:
                found.append((node.lineno, node.module))
    return found


def test_the_engine_has_modules_to_check() -> None:
    """The walk finds the engine's files (so the checks below cannot pass by finding nothing)."""
    names = {path.name for path in ENGINE_FILES}
    assert {"cards.py", "state.py", "export.py", "cli.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_no_engine_module_imports_django_or_channels(path: Path) -> None:
    """Not even indirectly by name: no ``import django…`` or ``from channels… import``."""
    bad = [(line, name) for line, name in imported_modules(path) if name.split(".")[0] in FORBIDDEN]
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_engine_modules_import_only_the_standard_library_and_the_engine(path: Path) -> None:
    """Every import is a standard-library module or part of game.engine."""
    bad = [
        (line, name)
        for line, name in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "game.engine"
        and not name.startswith("game.engine.")
    ]
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("name", sorted(DEAL_FILES))
def test_the_deal_does_not_use_the_random_module(name: str) -> None:
    """Python's random module is not a stable contract, so the deal never touches it."""
    modules = {module.split(".")[0] for _, module in imported_modules(ENGINE_DIR / name)}
    assert "random" not in modules


def test_the_import_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    """Control: the parser reports both forms of import, and relative imports as the engine."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, django.db\nfrom channels.layers import x\nfrom . import cards\n",
        encoding="utf-8",
    )
    assert imported_modules(sample) == [
        (1, "os"),
        (1, "django.db"),
        (2, "channels.layers"),
        (3, "game.engine"),
    ]
