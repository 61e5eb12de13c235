"""Cache keys made from everything a page reads.

A page's results are reused only when none of its inputs changed: the source
of every kreport module it imports (followed transitively), the report
machinery, its template, every fixture file and any extra input it names, the
pinned lock file and the installed versions of the numerical libraries. Keying
on the page text alone would serve stale numbers after a change to the library
or the data; this key cannot.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import importlib.util
import sys
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
REPOSITORY_ROOT = PACKAGE_ROOT.parent
LOCK_FILE = REPOSITORY_ROOT / "requirements.lock"
NUMERICAL_LIBRARIES = ("numpy", "scipy", "matplotlib", "jinja2", "nbclient", "ipykernel")


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # "from kreport.x import a_function"
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imported_kreport_modules(path: Path, package: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
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
    return {name for name in found if name == "kreport" or name.startswith("kreport.")}


def kreport_sources(module_name: str) -> list[Path]:
    """Every kreport source file ``module_name`` reaches through its imports."""
    seen: dict[str, Path] = {}
    pending = [module_name, "kreport.report"]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            seen[name] = None
            continue
        seen[name] = path
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        pending.extend(_imported_kreport_modules(path, package))
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    report_files = sorted((PACKAGE_ROOT / "report").glob("*.py"))
    return sorted({path for path in seen.values() if path is not None} | set(report_files))


def fixture_files() -> list[Path]:
    return sorted((PACKAGE_ROOT / "data").glob("*.csv"))


def environment_fingerprint() -> str:
    versions = []
    for library in NUMERICAL_LIBRARIES:
        try:
            versions.append(f"{library}=={importlib.metadata.version(library)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{library} absent")
    versions.append(f"python {sys.version_info.major}.{sys.version_info.minor}")
    return "\n".join(versions)


def input_files(module_name: str, extra: list[Path]) -> list[Path]:
    files = set(kreport_sources(module_name)) | set(fixture_files()) | set(extra)
    if LOCK_FILE.exists():
        files.add(LOCK_FILE)
    return sorted(files)


def cache_key(module_name: str, extra: list[Path]) -> str:
    digest = hashlib.sha256(environment_fingerprint().encode())
    for path in input_files(module_name, extra):
        name = path.relative_to(REPOSITORY_ROOT) if path.is_relative_to(REPOSITORY_ROOT) else path
        digest.update(str(name).encode() + b"\0")
        digest.update(path.read_bytes() if path.exists() else b"<missing>")
        digest.update(b"\0")
    return digest.hexdigest()[:32]
