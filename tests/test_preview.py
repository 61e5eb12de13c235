"""The live preview (`make serve`) in a real browser: an edit shows by itself.

The preview runs on a small copy of the repository whose pages are the tiny
site's (tests/small_copy.py), so that the test edits files without touching the
working tree and builds in seconds. In Chromium, with the
page open, the test saves a sentence into the page's template and waits for the
browser to show it (mkdocs reloads the page itself); then it breaks one of the
page's claims in its module and waits for the page to be replaced by the list of
its problems, quoting the claim's sentence.

How fast the edit shows is a benchmark's business (the closing notes give it);
here the wait is only bounded, so that a loaded machine does not fail the test.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from urllib.request import urlopen

import pytest

from .small_copy import environment_for, small_copy
from .test_browser import CHROMIUM, CHROMIUM_FLAGS

pytestmark = pytest.mark.browser

PAGE = "fit"
TEMPLATE = "kreport/pages/tiny_fit/fit.md.j2"
MODULE = "kreport/pages/tiny_fit/line.py"
SENTENCE = "This sentence was saved while the preview was running."
#: One of the page's claims, made false by turning its comparison round.
CLAIM = "the penalty makes the slope smaller than least squares'"
HOLDS = "slope < least_squares"
BROKEN = "slope > least_squares"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    """`make serve` on a small copy of the repository; yields (copy, address)."""
    copy = small_copy(tmp_path_factory.mktemp("preview") / "repo")
    environment = environment_for(copy)
    # A first build fills the copy's cache (the preview rebuilds from it) and writes
    # the tiny site's docs/.
    first = subprocess.run([sys.executable, "scripts/build_site.py", "--no-mkdocs"], cwd=copy,
                           env=environment, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-3000:]
    port = _free_port()
    server = subprocess.Popen([sys.executable, "scripts/serve.py", "--dev-addr",
                               f"127.0.0.1:{port}"], cwd=copy, env=environment,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    address = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urlopen(address + f"{PAGE}/", timeout=5):
                break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"the preview did not start: {server.stderr.read()[-3000:]}")
            time.sleep(0.25)
    yield copy, address
    os.killpg(server.pid, signal.SIGTERM)  # the server and anything it started
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


@pytest.fixture(scope="module")
def page(preview):
    from playwright.sync_api import sync_playwright

    _, address = preview
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        opened = browser.new_page()
        opened.goto(address + f"{PAGE}/", wait_until="load")
        yield opened
        browser.close()


def _shown(page, text: str, present: bool = True, seconds: float = 90) -> None:
    """Wait until the open page shows ``text`` (or, ``present=False``, no longer does);
    mkdocs reloads the page after each rebuild."""
    page.wait_for_function(
        "([text, present]) => !!document.body"
        " && document.body.innerText.includes(text) === present",
        arg=[text, present], timeout=seconds * 1000, polling=100)


def test_a_saved_template_edit_shows_in_the_open_page(preview, page):
    copy, _ = preview
    template = copy / TEMPLATE
    text = template.read_text()
    heading_end = text.index("\n\n", text.index("# {{ title }}"))
    template.write_text(text[:heading_end] + f"\n\n{SENTENCE}" + text[heading_end:])
    _shown(page, SENTENCE)


def test_a_broken_claim_replaces_the_page_with_its_sentence(preview, page):
    copy, _ = preview
    module = copy / MODULE
    source = module.read_text()
    assert HOLDS in source, "the claim this test breaks has changed; choose another"
    module.write_text(source.replace(HOLDS, BROKEN))
    _shown(page, "this page does not build")
    shown = page.inner_text("body")
    assert CLAIM in shown
    module.write_text(source)  # mended: the page comes back, with the earlier edit
    _shown(page, "this page does not build", present=False)
    _shown(page, SENTENCE)
