"""The live preview: `make serve`, on http://127.0.0.1:8000.

mkdocs serves the site and watches kreport/ (the library, the page packages,
their templates and the fixtures) as well as docs/. On a save, the preview hook
(kreport/site/preview.py) reruns the kreport build with its cache, so only what
the saved file reaches is recomputed, and mkdocs rebuilds the pages that changed
(`--dirty`) and reloads the browser. A page whose claims fail is shown as the
list of its problems in place of the page.

The preview's mkdocs configuration is the site's own (INHERIT) with the preview
hook added; it is written to .cache/, never committed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


class _SiteLoader(yaml.SafeLoader):
    """Reads mkdocs.yml for its theme and hooks; mkdocs itself reads the rest (INHERIT),
    with its own tags (``!ENV``, which a plain YAML loader refuses)."""


_SiteLoader.add_constructor("!ENV", lambda loader, node: None)


def preview_config(address: str) -> Path:
    site = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_SiteLoader)
    hooks = [str(ROOT / "kreport" / "site" / "preview.py"),
             *(str(ROOT / hook) for hook in site.get("hooks", []))]
    # The plugins are inherited as they are: none takes a path (the citations are
    # footnotes already, written by the kreport build). The theme's override is a
    # path relative to the configuration file, which lives in .cache/.
    theme = dict(site["theme"])
    if "custom_dir" in theme:
        theme["custom_dir"] = str(ROOT / theme["custom_dir"])
    config = {"INHERIT": str(ROOT / "mkdocs.yml"), "docs_dir": str(ROOT / "docs"),
              "strict": False, "theme": theme,
              "site_dir": str(ROOT / ".cache" / "preview-site"), "hooks": hooks,
              "dev_addr": address}
    path = ROOT / ".cache" / "preview-mkdocs.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev-addr", default="127.0.0.1:8000")
    options = parser.parse_args()
    config = preview_config(options.dev_addr)
    environment = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--config-file", str(config),
               "--watch", str(ROOT / "kreport")]
    # mkdocs takes this process's place: stopping `make serve` stops it, with no
    # server left behind.
    os.chdir(ROOT)
    os.execve(sys.executable, command, environment)


if __name__ == "__main__":
    sys.exit(main())
