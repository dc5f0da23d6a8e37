"""Static files for production: `collectstatic` with the production storage writes hashed names,
rewrites the references between files to them, and writes compressed copies.

A hashed file is cached for a year, so every file it refers to must be hashed too: these tests
read the collected files back and check each reference. (The suite's own settings use the plain
storage, so that no test needs a manifest; here the production storage runs for real.)
"""

import gzip
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command
from django.template import Context, Template
from django.test import override_settings

from tripeaks_site import settings as production

ROOT = Path(__file__).resolve().parents[2]
# Django's hashed names: the hash before the last extension, or at the end of a name without one.
HASHED_NAME = re.compile(r".+\.[0-9a-f]{12}(\.[^./]+)?")

# Where an ES module names another: `import ... from "x"`, `export ... from "x"`, `import "x"`,
# `import("x")`. Written independently of Django's patterns, and without their semicolons.
MODULE_SPECIFIER = re.compile(
    r"""\b(?:import|export)\b[^"'`;]*?\bfrom\s*(["'])(?P<from>[^"']+)\1"""
    r"""|\bimport\s*(["'])(?P<bare>[^"']+)\3"""
    r"""|\bimport\s*\(\s*(["'`])(?P<dynamic>[^"'`]+)\5"""
)
# Any other way a script could name a file: a quoted string ending in a static file's extension.
QUOTED_FILE = re.compile(r"""(["'`])(?P<name>[^"'`\s]+\.(?:m?js|css|svg))\1""")
# An import() whose argument is no string literal cannot be rewritten at all.
COMPUTED_IMPORT = re.compile(r"""\bimport\s*\(\s*[^"'`\s]""")
CSS_REFERENCE = re.compile(
    r"""url\(\s*(["']?)(?P<url>[^"')]+)\1\s*\)|@import\s+(["'])(?P<imported>[^"']+)\3"""
)


@dataclass(frozen=True)
class Collected:
    """The output of `collectstatic`: its directory and manifest (source name -> hashed name)."""

    root: Path
    manifest: dict[str, str]

    def hashed(self) -> set[str]:
        return set(self.manifest.values())


def collect(source_dirs: list[Path], root: Path) -> Collected:
    """Run collectstatic with the production storage from `source_dirs` into `root`."""
    with override_settings(
        STATIC_ROOT=root, STATICFILES_DIRS=source_dirs, STORAGES=production.STORAGES
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    return Collected(root, manifest)


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Collected:
    return collect(production.STATICFILES_DIRS, tmp_path_factory.mktemp("static"))


def module_specifiers(script: str) -> list[str]:
    """Every specifier an ES module imports or re-exports from, in order."""
    assert not COMPUTED_IMPORT.search(script), "an import() of a computed name is never hashed"
    return [
        m.group("from") or m.group("bare") or m.group("dynamic")
        for m in MODULE_SPECIFIER.finditer(script)
    ]


def quoted_files(script: str) -> list[str]:
    return [m.group("name") for m in QUOTED_FILE.finditer(script)]


def css_references(stylesheet: str) -> list[str]:
    """The files a stylesheet refers to (url() and @import), data: URIs and fragments left out."""
    urls = (m.group("url") or m.group("imported") for m in CSS_REFERENCE.finditer(stylesheet))
    return [u.strip() for u in urls if not u.strip().startswith(("data:", "#"))]


def unhashed_references(collected: Collected, name: str, references: list[str]) -> list[str]:
    """The references of a collected file that do not lead to a hashed file of the collection."""
    static_url = f"/{production.STATIC_URL.strip('/')}/"
    missing = []
    for reference in references:
        path = reference.split("#")[0].split("?")[0]
        if path.startswith(static_url):
            target = path[len(static_url) :]
        else:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path))
        if target not in collected.hashed() or not (collected.root / target).is_file():
            missing.append(reference)
    return missing


def own_files(pattern: str) -> set[str]:
    """The site's own static files (not the admin's) matching a glob, by their static names."""
    found = (ROOT / "static").rglob(pattern)
    return {p.relative_to(ROOT / "static").as_posix() for p in found if p.is_file()}


def test_every_file_is_hashed_with_a_gzip_copy_of_the_same_bytes(collected: Collected) -> None:
    assert own_files("*") <= set(collected.manifest)
    for source, hashed in collected.manifest.items():
        assert HASHED_NAME.fullmatch(hashed), hashed
        content = (collected.root / hashed).read_bytes()
        if source.endswith((".js", ".css")):
            assert gzip.decompress((collected.root / f"{hashed}.gz").read_bytes()) == content


def test_every_module_import_names_a_hashed_module(collected: Collected) -> None:
    """In every collected script of the site, each import and re-export (and any quoted file
    name) leads to a hashed file, and none of the source's imports went missing on the way."""
    scripts = {s: collected.manifest[s] for s in own_files("*.js")}
    assert len(scripts) >= 20
    imports = 0
    for source, hashed in scripts.items():
        script = (collected.root / hashed).read_text()
        written = module_specifiers(script)
        assert len(written) == len(module_specifiers((ROOT / "static" / source).read_text()))
        assert unhashed_references(collected, hashed, written) == [], source
        assert unhashed_references(collected, hashed, quoted_files(script)) == [], source
        imports += len(written)
    assert imports >= 50  # the game page alone imports a dozen modules


def test_every_stylesheet_reference_is_hashed(collected: Collected) -> None:
    """The site's stylesheets refer to no file today, the admin's do: all are checked."""
    references = 0
    for source, hashed in collected.manifest.items():
        if source.endswith(".css"):
            found = css_references((collected.root / hashed).read_text())
            assert unhashed_references(collected, hashed, found) == [], source
            references += len(found)
    assert references >= 10


def test_the_storage_rewrites_every_import_form_and_css_reference(tmp_path: Path) -> None:
    """What the scripts may write: multi-line imports, namespace imports, bare imports,
    re-exports and import() of a literal (each static form ends with its semicolon)."""
    source = tmp_path / "source"
    (source / "lib").mkdir(parents=True)
    (source / "img").mkdir()
    for name in ["lib/b.js", "lib/side.js", "lib/lazy.js"]:
        (source / name).write_text("export const one = 1, two = 2, three = 3;\n")
    (source / "other.css").write_text(".z { color: red; }\n")
    (source / "img/dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    (source / "lib/a.js").write_text(
        'import {\n  one,\n  two,\n} from "./b.js";\n'
        "import * as everything from './b.js';\n"
        'import "./side.js";\n'
        'export { three } from "./b.js";\n'
        'export * from "../lib/b.js";\n'
        'const later = () => import("./lazy.js");\n'
    )
    (source / "style.css").write_text(
        '@import "other.css";\n.x { background: url("img/dot.svg"); }\n'
        ".y { background: url(img/dot.svg#mark); }\n"
    )
    result = collect([source], tmp_path / "collected")
    script = result.manifest["lib/a.js"]
    written = module_specifiers((result.root / script).read_text())
    assert len(written) == 6
    assert unhashed_references(result, script, written) == []
    assert len(quoted_files((result.root / script).read_text())) == 6
    stylesheet = result.manifest["style.css"]
    references = css_references((result.root / stylesheet).read_text())
    assert len(references) == 3
    assert unhashed_references(result, stylesheet, references) == []


def template_static_names() -> set[str]:
    """Every file named by {% static %} in the site's and the apps' templates."""
    tag = re.compile(r"""\{%\s*static\s+["']([^"']+)["']""")
    templates = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")]
    return {name for path in templates for name in tag.findall(path.read_text())}


def test_every_static_file_a_template_names_is_in_the_manifest(collected: Collected) -> None:
    """The manifest is strict: a page naming a file it lacks fails with DEBUG off."""
    names = template_static_names()
    assert {"js/play.js", "css/board.css", "css/site.css"} <= names
    assert names <= set(collected.manifest)


def render_static(name: str) -> str:
    return Template("{% load static %}{% static name %}").render(Context({"name": name}))


def test_pages_link_hashed_names_in_production(collected: Collected) -> None:
    with override_settings(DEBUG=False, STATIC_ROOT=collected.root, STORAGES=production.STORAGES):
        assert render_static("js/game.js") == f"/static/{collected.manifest['js/game.js']}"


def test_development_needs_no_collectstatic(tmp_path: Path) -> None:
    """With DEBUG on (make run) pages link the plain names and no manifest is read."""
    with override_settings(DEBUG=True, STATIC_ROOT=tmp_path, STORAGES=production.STORAGES):
        assert render_static("js/game.js") == "/static/js/game.js"
