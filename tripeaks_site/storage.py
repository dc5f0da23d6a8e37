"""How `collectstatic` writes static files for production: hashed names, compressed copies."""

from whitenoise.storage import CompressedManifestStaticFilesStorage

# A module specifier this storage rewrites: a relative path, as the site's scripts write them.
_SPECIFIER = r"""\s*["'](?P<url>[./][^"']*)["']"""
# An import or export clause: anything up to `from` that is not a string or a statement's end.
_CLAUSE = r"""[\s{*][^"';]*?"""


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage (hashed names, a manifest, .gz copies) that also rewrites JS imports.

    The scripts are native ES modules that import each other by relative path. A hashed file is
    cached for a year, so what it imports must be hashed too: otherwise a new deploy would pair a
    cached module with a changed one it imports under the same old name.

    Django can rewrite imports (``support_js_module_import_aggregation``), but its patterns let a
    clause run on past the end of its statement: a bare ``import "./a.js";`` followed by an
    ``export ... from "./b.js";`` makes collectstatic fail. These patterns stop a clause at a
    quote or a semicolon. Rewritten: ``import ... from "./x.js";`` (over several lines too),
    ``export ... from "./x.js";``, ``import "./x.js";`` and ``import("./x.js")``; the static forms
    need their semicolon (tests/tripeaks_site/test_static.py checks every collected script).
    """

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        (
            "*.js",
            (
                (
                    rf"(?P<matched>import(?P<import>{_CLAUSE})\s*from{_SPECIFIER}\s*;)",
                    'import%(import)s from "%(url)s";',
                ),
                (
                    rf"(?P<matched>export(?P<exports>{_CLAUSE})\s*from{_SPECIFIER}\s*;)",
                    'export%(exports)s from "%(url)s";',
                ),
                (rf"(?P<matched>import{_SPECIFIER}\s*;)", 'import "%(url)s";'),
                (rf"(?P<matched>import\({_SPECIFIER}\s*\))", 'import("%(url)s")'),
            ),
        ),
    )
