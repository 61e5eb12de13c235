"""How soon the live preview shows a saved edit: `make bench-preview`.

Starts the preview (scripts/serve.py) on a free port, opens the ridge page in
headless Chromium, and then, RUNS times, saves one sentence into the page's
template and times how long the open page takes to show it (mkdocs reloads it
by itself), then takes the sentence out again and waits for the page to drop it.
Each time is from the save to the sentence on screen, so it holds the watcher's
notice, the kreport rebuild, mkdocs' rebuild and the browser's reload. It
prints each run, then the median and the largest.

The template is restored however the run ends; if it is stopped mid-run,
`make docs` puts docs/ back. Timings are this machine's: compare runs made side
by side, never with a number measured elsewhere.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "kreport" / "pages" / "ridge" / "ridge.md.j2"
PAGE = "ridge/"
CHROMIUM = os.environ.get("KREPORT_CHROMIUM", "/usr/bin/chromium")
#: A template may hold no digit (every number comes from code), so runs are named.
NAMES = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_served(address: str, server: subprocess.Popen, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urlopen(address, timeout=5):
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the preview did not start") from None
            time.sleep(0.25)


def _with_sentence(text: str, sentence: str) -> str:
    """The template with ``sentence`` as the first paragraph under the title."""
    after_title = text.index("\n\n", text.index("# {{ title }}"))
    return text[:after_title] + f"\n\n{sentence}" + text[after_title:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, choices=range(1, len(NAMES) + 1))
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    original = TEMPLATE.read_text(encoding="utf-8")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "scripts/serve.py", "--dev-addr",
                               f"127.0.0.1:{port}"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    address = f"http://127.0.0.1:{port}/{PAGE}"
    shown = []
    try:
        _wait_until_served(address, server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                 args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(address, wait_until="load")
            page.wait_for_timeout(2000)  # the preview's first rebuilds settle
            for name in NAMES[:options.runs]:
                sentence = f"Saved while timing the preview, run {name}."
                saved = time.monotonic()
                TEMPLATE.write_text(_with_sentence(original, sentence), encoding="utf-8")
                # mkdocs reloads the page: between two documents there is no body yet.
                page.wait_for_function("text => !!document.body"
                                       " && document.body.innerText.includes(text)",
                                       arg=sentence, timeout=120_000, polling=50)
                shown.append(time.monotonic() - saved)
                print(f"run {name}: shown {shown[-1]:.2f} s after saving", flush=True)
                TEMPLATE.write_text(original, encoding="utf-8")
                page.wait_for_function("text => !!document.body"
                                       " && !document.body.innerText.includes(text)",
                                       arg=sentence, timeout=120_000, polling=50)
                page.wait_for_timeout(1500)  # the rebuild the revert set off settles
            browser.close()
    finally:
        TEMPLATE.write_text(original, encoding="utf-8")
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    print(f"median {statistics.median(shown):.2f} s, largest {max(shown):.2f} s "
          f"over {len(shown)} saves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
