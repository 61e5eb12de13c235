"""Where the driver reads and writes. Handed in, never guessed inside a page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SitePaths:
    root: Path  # the repository
    docs: Path  # generated pages, figures, manifests, plus declared hand-written assets
    cache: Path  # computed results, keyed by their inputs
    mkdocs_config: Path
    lock_file: Path  # the pinned versions every machine installs
    assets_list: Path  # docs/ files written by hand, one glob per line

    @property
    def bibliography(self) -> Path:
        """The references pages cite (``[@key]``), a hand-written asset in docs/."""
        return self.docs / "references.bib"

    @classmethod
    def for_repository(cls, root: Path) -> SitePaths:
        root = Path(root).resolve()
        return cls(
            root=root,
            docs=root / "docs",
            cache=root / ".cache",
            mkdocs_config=root / "mkdocs.yml",
            lock_file=root / "requirements.lock",
            assets_list=root / "docs" / "ASSETS",
        )


#: The repository this copy of kreport was installed from (editable install).
REPOSITORY = Path(__file__).resolve().parents[2]
