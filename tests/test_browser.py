"""The built site in a real browser: headless Chromium against 127.0.0.1.

For every page in the navigation: it loads, logs no console error, every image
loads, all math is rendered by the local KaTeX (nothing raw left, no KaTeX
error), no request leaves 127.0.0.1, and every internal link resolves. A
full-page screenshot of each lands in test-artifacts/screenshots/ for a person
to look at.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

if CHROMIUM is None:
    if os.environ.get("KREPORT_REQUIRE_BROWSER"):
        raise RuntimeError("KREPORT_REQUIRE_BROWSER is set but chromium is not installed")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser


def _nav_pages() -> list[str]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    pages = []
    for entry in config["nav"]:
        pages.extend(entry.values())
    return pages


def _url_path(source: str) -> str:
    stem = source.rsplit(".", 1)[0]
    return "" if stem == "index" else f"{stem}/"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """The committed docs/ built by mkdocs into a scratch folder and served on 127.0.0.1."""
    site = tmp_path_factory.mktemp("site")
    environment = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                    "--site-dir", str(site)], cwd=ROOT, env=environment, check=True)
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.mark.parametrize("source", _nav_pages())
def test_page_in_the_browser(source, site_url, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    console_errors, outside_requests, failed_requests = [], [], []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    page.on("requestfailed", lambda r: failed_requests.append(r.url))

    def keep_local(route):
        host = urlparse(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            outside_requests.append(route.request.url)
            route.abort()

    page.route("**/*", keep_local)
    url = urljoin(site_url, _url_path(source))
    response = page.goto(url, wait_until="networkidle")
    assert response is not None and response.ok, f"{url} answered {response and response.status}"
    page.evaluate("document.fonts.ready")

    broken_images = page.evaluate(
        "[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)"
    )
    math = page.evaluate("""() => ({
        pending: [...document.querySelectorAll('.arithmatex')]
                   .filter(e => !e.querySelector('.katex')).map(e => e.textContent.slice(0, 60)),
        errors: document.querySelectorAll('.katex-error').length,
        rendered: document.querySelectorAll('.katex').length,
        raw: (document.querySelector('article') || document.body).innerText
               .match(/\\\\\\(|\\\\\\[|\\$\\$/g) || [],
    })""")
    links = page.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.href)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = _url_path(source).strip("/") or "index"
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    internal = sorted({link.split("#")[0] for link in links
                       if urlparse(link).hostname == "127.0.0.1"})
    unresolved = [link for link in internal if not context.request.get(link).ok]
    context.close()

    assert not outside_requests, f"requests left 127.0.0.1: {outside_requests}"
    assert not failed_requests, f"requests failed: {failed_requests}"
    assert not console_errors, f"console errors: {console_errors}"
    assert not broken_images, f"images that did not load: {broken_images}"
    assert not math["pending"], f"math left unrendered: {math['pending']}"
    assert math["errors"] == 0, "KaTeX reported errors"
    assert not math["raw"], f"raw TeX delimiters in the text: {math['raw'][:5]}"
    assert not unresolved, f"internal links that do not resolve: {unresolved}"
