"""The live preview's mkdocs hook (``make serve``; see ``scripts/serve.py``).

Before every rebuild that ``mkdocs serve`` makes after a save, the kreport build
runs in a fresh process (so an edited page module is imported anew) with the
cache: only what the saved file reaches is recomputed, and a template edit only
re-renders its page. If the build fails, docs/ keeps its last good files, and
each page named in the failure is served in its place as the list of its
problems (the failing claim's sentence and values), so the author sees at once
what broke and where.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The problems of the last kreport build, by page slug (empty when it passed).
PROBLEMS: dict[str, list[str]] = {}


def problems_by_page(report: str, slugs: list[str]) -> dict[str, list[str]]:
    """Split a failed build's report into the problems of each page it names."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in report.splitlines():
        text = line.strip()
        if not text:
            continue
        if line.startswith("  ") and not line.startswith("    "):
            subject = text.removeprefix("stability: ").split(":", 1)[0].split()[0]
            subject = subject.removeprefix("docs/").removesuffix(".md").removesuffix(".ipynb")
            current = subject if subject in slugs else None
            if current:
                found.setdefault(current, []).append(text)
        elif current and line.startswith("    "):
            found[current].append(text)
    return found


def failure_page(slug: str, problems: list[str]) -> str:
    """What the preview shows in place of a page that does not build."""
    lines = [f"# {slug}: this page does not build", "",
             '!!! failure "The build stopped; docs/ still holds the last good version"', ""]
    lines += [f"    * {problem}" for problem in problems]
    lines += ["", "Fix the page module, its template or the library, and save: the preview "
              "rebuilds by itself."]
    return "\n".join(lines) + "\n"


def on_pre_build(config, **kwargs) -> None:
    started = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_site.py"), "--no-mkdocs"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    before = dict(PROBLEMS)
    PROBLEMS.clear()
    if completed.returncode:
        slugs = [path.stem for path in Path(config["docs_dir"]).iterdir()
                 if path.suffix in (".md", ".ipynb")]
        PROBLEMS.update(problems_by_page(completed.stderr, slugs))
        if not PROBLEMS:  # a problem of the whole site: show it on the home page
            PROBLEMS["index"] = [line.strip() for line in completed.stderr.splitlines()
                                 if line.strip()][-20:]
    # mkdocs serve --dirty re-renders only pages whose source is newer than their
    # output; a page that starts or stops failing must be re-rendered though docs/
    # did not change. Touching it triggers one more rebuild, which finds the same
    # problems and touches nothing, so this settles.
    docs = Path(config["docs_dir"])
    for slug in {*before, *PROBLEMS}:
        if before.get(slug) != PROBLEMS.get(slug):
            for source in (docs / f"{slug}.md", docs / f"{slug}.ipynb"):
                if source.exists():
                    source.touch()
    status = "failed" if PROBLEMS else "passed"
    print(f"kreport preview: the build {status} in {time.perf_counter() - started:.1f} s",
          file=sys.stderr, flush=True)


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    slug = Path(page.file.src_uri).stem
    if slug in PROBLEMS:
        return failure_page(slug, PROBLEMS[slug])
    return markdown
