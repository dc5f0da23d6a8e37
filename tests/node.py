"""The page's scripts run in Node, for tests that hold a script to the server's code.

A test writes a small ES module (``runner``) that imports the page's own module, reads its cases
as JSON on standard input and writes its answers as JSON on standard output.
"""

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="needs Node.js")
"""Skip a test (or, as ``pytestmark``, a module) where Node is missing."""

STATIC_JS = Path(__file__).resolve().parent.parent / "static" / "js"


def module_url(name: str) -> str:
    """The ``import`` specifier of the page's module ``name`` (``"view.js"``), quoted for JS."""
    return json.dumps((STATIC_JS / name).as_uri())


def run_in_node(tmp_path: Path, runner: str, cases: object) -> Any:
    """Run the ES module ``runner`` in Node with ``cases`` on its standard input, as JSON; return
    what it wrote, read as JSON. A failing script fails the test with its error."""
    script = tmp_path / "runner.mjs"
    script.write_text(runner)
    result = subprocess.run(
        [str(NODE), str(script)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(result.stdout)
