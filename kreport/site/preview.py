"""The live preview's mkdocs hook (``make serve``; see ``scripts/serve.py``).

Before every rebuild that ``mkdocs serve`` makes after a save, the kreport build
runs with the cache in a process of its own, forked from one that has imported
only the third-party libraries (:data:`PRELOAD`), so an edited page module is
imported anew. Only what the saved file reaches is recomputed, and a template
edit only re-renders its page. If the build fails, docs/ keeps its last good files, and
each page named in the failure is served in its place as the list of its
problems (the failing claim's sentence and values), so the author sees at once
what broke and where.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "scripts" / "build_site.py"

#: The libraries a rebuild imports that no save in the repository can change. They
#: are imported once, into the process each rebuild is forked from (about 0.6 s a
#: rebuild saved); kreport and the page packages are not, so every rebuild reads
#: them anew, as a fresh process would.
PRELOAD = ["numpy", "scipy.linalg", "scipy.sparse.linalg", "scipy.spatial.distance",
           "scipy.optimize", "matplotlib.pyplot", "matplotlib.collections",
           "matplotlib.patches", "matplotlib.ticker", "jinja2", "jinja2.sandbox", "yaml",
           "tinycss2", "pybtex.database"]
_FORKS: multiprocessing.context.BaseContext | None = None

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


def _rebuild_here(report: str) -> None:
    """The kreport build (`make docs` without mkdocs), in a process forked for it; what it
    says on stderr goes to ``report``, and its exit status is the process's."""
    import runpy

    os.chdir(ROOT)
    with open(os.devnull, "w") as quiet, open(report, "w") as problems:
        os.dup2(quiet.fileno(), 1)
        os.dup2(problems.fileno(), 2)
    sys.argv = [str(BUILD), "--no-mkdocs"]
    runpy.run_path(str(BUILD), run_name="__main__")


def _rebuild() -> tuple[int, str]:
    """Run the kreport build once; its exit status and what it said on stderr."""
    global _FORKS
    if "forkserver" not in multiprocessing.get_all_start_methods():
        completed = subprocess.run([sys.executable, str(BUILD), "--no-mkdocs"], cwd=ROOT,
                                   capture_output=True, text=True, check=False)
        return completed.returncode, completed.stderr
    if _FORKS is None:
        _FORKS = multiprocessing.get_context("forkserver")
        _FORKS.set_forkserver_preload(PRELOAD)
    # mkdocs loads this hook from its path, under a name no other process can import;
    # the forked process finds the function under the module's own name.
    from kreport.site import preview

    with tempfile.TemporaryDirectory() as scratch:
        report = str(Path(scratch) / "stderr.txt")
        process = _FORKS.Process(target=preview._rebuild_here, args=(report,))
        process.start()
        process.join()
        return process.exitcode, Path(report).read_text(encoding="utf-8")


def on_pre_build(config, **kwargs) -> None:
    started = time.perf_counter()
    returncode, report = _rebuild()
    before = dict(PROBLEMS)
    PROBLEMS.clear()
    if returncode:
        slugs = [path.stem for path in Path(config["docs_dir"]).iterdir()
                 if path.suffix in (".md", ".ipynb")]
        PROBLEMS.update(problems_by_page(report, slugs))
        if not PROBLEMS:  # a problem of the whole site: show it on the home page
            PROBLEMS["index"] = [line.strip() for line in report.splitlines()
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
