"""The repository's scripts, imported as modules (they are scripts, not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load(name: str):
    """scripts/<name>.py as a module of its own."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as an import would be: a dataclass in the script
    # looks its own module up by name.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def write_fixtures_as_made(directory: Path) -> Path:
    """Every fixture as scripts/make_fixtures.py writes it (the version the source
    documents' statistics describe), into ``directory``; returns it."""
    maker = load("make_fixtures")
    for build in maker.BUILDERS:
        maker.write(build(), directory)
    return directory
