"""Lighthouse on the built site, as a phone sees it: `make audit`.

Serves site/ on 127.0.0.1 with gzip (as any real host would), runs
Lighthouse (pinned in audit/package-lock.json, installed by `npm ci` into
audit/node_modules) with its default mobile emulation and simulated
throttling in Debian's Chromium, one page at a time, and prints each page's
performance and accessibility scores with the metrics behind them. Exits
non-zero when a page scores below the floors (performance 90, accessibility
100). Not part of `make test`: Lighthouse's timings vary from run to run,
and the test suite holds only checks that give the same answer every time.

The timings behind the performance score are measured on this machine's CPU,
and on a busy two-core machine one run of a page can differ from the next by
several points. So each page is audited three times (``--runs``) and judged by
its median run, as Lighthouse's own guidance on variability advises; every
run's score is printed beside it.

    make audit                       # every page
    make audit PAGES="kernel-ridge"  # some
    make audit RUNS=5                # more runs a page
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "audit" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("KREPORT_CHROMIUM", "/usr/bin/chromium")
FLOORS = {"performance": 90, "accessibility": 100}
COMPRESSED = (".html", ".js", ".css", ".json", ".svg", ".xml")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped when the browser asks (Lighthouse's Chromium does)."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (not path.is_file() or not path.name.endswith(COMPRESSED)
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def pages(site: Path) -> list[str]:
    slugs = sorted(path.parent.relative_to(site).as_posix() for path in site.glob("*/index.html")
                   if path.parent.name not in ("search", "assets"))
    return ["", *slugs]


def audit(url: str) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        subprocess.run(
            [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
             "--only-categories=performance,accessibility",
             "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
            check=True, env=dict(os.environ, CHROME_PATH=CHROMIUM))
        data = json.loads(report.read_text())
    audits = data["audits"]
    counted = {ref["id"] for ref in data["categories"]["accessibility"]["auditRefs"]}
    failed_a11y = [name for name, entry in audits.items()
                   if name in counted and entry.get("scoreDisplayMode") == "binary"
                   and entry.get("score") == 0]
    return {
        "performance": round(100 * data["categories"]["performance"]["score"]),
        "accessibility": round(100 * data["categories"]["accessibility"]["score"]),
        "fcp_s": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "accessibility_failures": failed_a11y,
    }


def median_run(runs: list[dict]) -> dict:
    """The run whose performance score is the median (the lower middle of an even
    count), with the lowest accessibility score of any run and every failure seen."""
    ordered = sorted(runs, key=lambda run: run["performance"])
    median = dict(ordered[(len(ordered) - 1) // 2])
    median["accessibility"] = min(run["accessibility"] for run in runs)
    median["accessibility_failures"] = sorted({name for run in runs
                                               for name in run["accessibility_failures"]})
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="page slugs (default: every page)")
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=3, help="runs a page (its median is judged)")
    options = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print("Lighthouse is not installed: run `npm ci --prefix audit` (make audit does)",
              file=sys.stderr)
        return 2
    handler = functools.partial(GzipHandler, directory=str(options.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    below = []
    for slug in options.pages or pages(options.site):
        runs = [audit(base + (f"{slug}/" if slug else "")) for _ in range(options.runs)]
        result = median_run(runs)
        scores = ", ".join(str(run["performance"]) for run in runs)
        print(f"{slug or 'index':22} performance {result['performance']:3} (runs {scores})  "
              f"accessibility {result['accessibility']:3}  FCP {result['fcp_s']:.1f} s  "
              f"LCP {result['lcp_s']:.1f} s  TBT {result['tbt_ms']:.0f} ms  "
              f"CLS {result['cls']:.3f}  {' '.join(result['accessibility_failures'])}",
              flush=True)
        below += [f"{slug or 'index'} {name} {result[name]} < {floor}"
                  for name, floor in FLOORS.items() if result[name] < floor]
    server.shutdown()
    if below:
        print("below the floors:\n  " + "\n  ".join(below), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
