"""The one cache rule, for pages and notebooks alike.

A result is reused only when none of its inputs changed. The inputs of a page
or a notebook are:

* the source of every kreport module it imports, followed through imports
  (for a notebook, the imports of its code cells), plus the page-facing
  machinery in ``kreport/report/`` and the driver modules facts depend on
  (:data:`FACT_MACHINERY`);
* its own files (a page's template, a notebook's source) and any extra input
  it names (a timing file);
* every fixture file, the pinned lock file and the installed versions of the
  libraries that compute and render;
* for a page that reads the whole site, the keys of every other page.

Keying on the page text alone would serve stale numbers after a change to the
library or the data; this key cannot. :class:`CacheStore` keeps one entry per
name, so a stale entry is replaced, never served.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
COMPUTING_LIBRARIES = ("numpy", "scipy", "matplotlib", "jinja2", "nbclient", "ipykernel",
                       "nbformat")


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # "from kreport.x import a_function"
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def imported_project_modules(source: str, package: str, filename: str = "<source>") -> set[str]:
    """The modules of kreport, and of the top-level package ``package`` lies in, that a
    piece of Python source imports (absolute or relative). The second matters for a
    page defined outside kreport (the tests' tiny site): its own modules key it too."""
    tree = ast.parse(source, filename=filename)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # "from kreport import kernels" imports a module, not a name
            found.update(f"{base}.{alias.name}" for alias in node.names)
    roots = {"kreport", package.partition(".")[0]}
    return {name for name in found if name.partition(".")[0] in roots}


#: What one source file imports, by (path, modification time, size): a key is
#: computed for every page, and every page reaches most of the library, so each
#: file is parsed once per process (and again only after it is saved).
_IMPORTS: dict[tuple, set[str]] = {}
#: The bytes of each input file, by the same stamp.
_CONTENTS: dict[tuple, bytes] = {}


def _stamp(path: Path) -> tuple:
    status = path.stat()
    return (str(path), status.st_mtime_ns, status.st_size)


def _imports_of(path: Path, package: str) -> set[str]:
    stamp = (*_stamp(path), package)
    if stamp not in _IMPORTS:
        _IMPORTS[stamp] = set(parsed("imports", _contents(path), package, Path(__file__),
                                     lambda: sorted(imported_project_modules(
                                         path.read_text(encoding="utf-8"), package, str(path)))))
    return _IMPORTS[stamp]


#: Where :func:`parsed` keeps what it read from a source, by the source's digest.
PARSED = PACKAGE_ROOT.parent / ".cache" / "parsed"


def parsed(what: str, source: bytes, context: str, reader: Path, read):
    """What ``read()`` finds in ``source`` (JSON data), kept on disk by the source's
    digest: parsing every file of the library for its imports, and every page
    package for its thresholds, was most of a no-op build. ``what`` names the
    question and ``reader`` the module that answers it, whose text is part of
    the key: a change to how a source is read reads every source again."""
    digest = hashlib.sha256(what.encode() + b"\0" + context.encode() + b"\0" + source
                            + b"\0" + _contents(reader)).hexdigest()[:32]
    path = PARSED / what / f"{digest}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    found = read()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(found))
        temporary.replace(path)
    except OSError:  # a read-only checkout still builds, parsing each time
        pass
    return found


def _contents(path: Path) -> bytes:
    if not path.exists():
        return b"<missing>"
    stamp = _stamp(path)
    if stamp not in _CONTENTS:
        _CONTENTS[stamp] = path.read_bytes()
    return _CONTENTS[stamp]


def kreport_sources(module_names: Iterable[str]) -> list[Path]:
    """Every kreport source file the modules reach through their imports, plus
    the machinery (``kreport/report``) and :data:`FACT_MACHINERY`."""
    seen: dict[str, Path | None] = {}
    pending = [*module_names, "kreport.report"]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = _module_file(name)
        seen[name] = path
        if path is None:
            continue
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        pending.extend(_imports_of(path, package))
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    machinery = {*(PACKAGE_ROOT / "report").glob("*.py"),
                 *(PACKAGE_ROOT / "site" / name for name in FACT_MACHINERY)}
    return sorted({path for path in seen.values() if path is not None} | machinery)


#: The driver modules a result's facts depend on: the cache's own form, how a
#: notebook is executed and collected, and how replicas are computed. The rest
#: of the driver (rendering, the checks, the stability rules, the writers, the
#: preview) acts on facts after they are computed; what depends on it is keyed
#: by :func:`driver_digest` where it is cached (the rendered text, the stability
#: verdicts), so editing it recomputes no page.
FACT_MACHINERY = ("cache.py", "results.py", "notebooks.py", "executor.py")


def driver_digest(*names: str) -> str:
    """A digest of the named driver modules (``kreport/site/<name>``)."""
    digest = hashlib.sha256()
    for name in sorted(names):
        digest.update(name.encode() + b"\0" + _contents(PACKAGE_ROOT / "site" / name) + b"\0")
    return digest.hexdigest()[:32]


def fixture_files() -> list[Path]:
    return sorted((PACKAGE_ROOT / "data").glob("*.csv"))


@functools.cache
def environment_fingerprint() -> str:
    versions = []
    for library in COMPUTING_LIBRARIES:
        try:
            versions.append(f"{library}=={importlib.metadata.version(library)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{library} absent")
    versions.append(f"python {sys.version_info.major}.{sys.version_info.minor}")
    return "\n".join(versions)


def input_files(modules: Iterable[str], own_files: Iterable[Path], lock_file: Path) -> list[Path]:
    files = set(kreport_sources(modules)) | set(fixture_files()) | set(own_files)
    files.add(lock_file)
    return sorted(files)


def cache_key(modules: Iterable[str], own_files: Iterable[Path], lock_file: Path,
              also: Iterable[str] = ()) -> str:
    """The key of a result computed from ``modules`` and ``own_files``.

    ``also`` adds strings that are inputs too (other pages' keys, a setting).
    """
    root = PACKAGE_ROOT.parent
    digest = hashlib.sha256(environment_fingerprint().encode())
    for path in input_files(modules, own_files, lock_file):
        name = path.relative_to(root) if path.is_relative_to(root) else path
        digest.update(str(name).encode() + b"\0")
        digest.update(_contents(path))
        digest.update(b"\0")
    for extra in also:
        digest.update(extra.encode() + b"\0")
    return digest.hexdigest()[:32]


class CacheStore:
    """One stored result per (kind, name); storing a new key drops the old one."""

    def __init__(self, directory: Path, enabled: bool = True):
        self.directory = Path(directory)
        self.enabled = enabled

    def _path(self, kind: str, name: str, key: str) -> Path:
        return self.directory / kind / name / f"{key}.json"

    def has(self, kind: str, name: str, key: str) -> bool:
        return self.enabled and self._path(kind, name, key).exists()

    def get(self, kind: str, name: str, key: str):
        if not self.enabled:
            return None
        try:
            return json.loads(self._path(kind, name, key).read_text(encoding="utf-8"))
        except (OSError, ValueError):  # absent, or dropped by another build meanwhile
            return None

    def put(self, kind: str, name: str, key: str, value) -> None:
        """Store ``value`` and drop the name's other keys. Two builds may share the
        cache (the test suite builds the site in several processes), so the file
        appears whole or not at all."""
        if not self.enabled:
            return
        path = self._path(kind, name, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("*.json"):
            if old != path:
                old.unlink(missing_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(value), encoding="utf-8")
        temporary.replace(path)
