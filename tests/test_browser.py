"""The built site in a real browser: headless Chromium against 127.0.0.1.

Every page in the navigation is opened at a phone's width (390 px) and a
desktop's (1280 px), in the light and the dark colour scheme. On each:

* it loads; the console shows no error and no warning; every image loads;
  all math is rendered by the local KaTeX (nothing raw left, no KaTeX error);
  no request leaves 127.0.0.1; every internal link resolves;
* the page does not scroll sideways (wide math and tables scroll inside
  themselves);
* every figure has alt text and a caption, and its lettering, as shown, is at
  least :data:`FIGURE_TEXT_FLOOR` of the body text's size (see there why);
* a full-page screenshot lands in test-artifacts/screenshots/ for a person to
  look at (``<page>-<width>-<scheme>.png``).

And once each: focusing a printed number (in prose and in math) shows its
provenance; a figure opens full size and closes with Escape; a search for the
US spelling of a glossary term finds the pages that use the British one; the
previous/next links in the footer go where they say.
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
CHROMIUM = (os.environ.get("KREPORT_CHROMIUM")
            or shutil.which("chromium") or shutil.which("chromium-browser")
            or shutil.which("google-chrome") or shutil.which("google-chrome-stable"))
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
WIDTHS = (390, 1280)
SCHEMES = ("light", "dark")

#: The smallest figure lettering allowed, as shown, relative to the body text.
#:
#: Why 0.6: printed books and journals set figure lettering at about 7 pt
#: beside 10–11 pt text (0.65–0.7 of it; a common journal minimum is 6 pt
#: beside 9 pt, 0.67). On screens the site's body text is 16 px, so 0.6 is
#: 9.6 px, about the smallest lettering that reads without zooming at a
#: phone's viewing distance, and above the 4–6 px that figures shrunk to a
#: phone's column used to show. Measured on the glyphs inside each SVG (their
#: drawn size times the image's scale as shown), per piece of text (a
#: superscript counts with its base), so the floor is what a reader sees.
FIGURE_TEXT_FLOOR = 0.6

if CHROMIUM is None or not Path(CHROMIUM).exists():
    if os.environ.get("KREPORT_REQUIRE_BROWSER"):
        raise RuntimeError("KREPORT_REQUIRE_BROWSER is set but no Chromium or Chrome was found "
                           "(apt-get install chromium, or set KREPORT_CHROMIUM)")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser


def _nav_pages() -> list[str]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    pages = []

    def walk(entries):
        for entry in entries:
            if isinstance(entry, str):
                pages.append(entry)
            elif isinstance(entry, dict):
                for value in entry.values():
                    walk(value if isinstance(value, list) else [value])

    walk(config["nav"])
    return pages


def _url_path(source: str) -> str:
    stem = source.rsplit(".", 1)[0]
    return "" if stem == "index" else f"{stem}/"


PAGES = _nav_pages()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """The committed docs/ built by mkdocs into a scratch folder and served on 127.0.0.1
    (or, with KREPORT_BROWSER_SITE=<folder>, a site already built there)."""
    given = os.environ.get("KREPORT_BROWSER_SITE")
    site = Path(given) if given else tmp_path_factory.mktemp("site")
    if not given:
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


def _open(browser, site_url, source, width=1280, scheme="light"):
    """A page opened as a reader would; returns (context, page, what the console said,
    requests that left the site, requests that failed)."""
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  color_scheme=scheme)
    page = context.new_page()
    console, outside, failed = [], [], []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.on("requestfailed", lambda r: failed.append(r.url))

    def keep_local(route):
        host = urlparse(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", keep_local)
    url = urljoin(site_url, _url_path(source))
    response = page.goto(url, wait_until="networkidle")
    assert response is not None and response.ok, f"{url} answered {response and response.status}"
    page.evaluate("document.fonts.ready")
    return context, page, console, outside, failed


MEASURE = """async (floor) => {
  const visible = (el) => el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null;
  const body = parseFloat(getComputedStyle(
      document.querySelector('article p') || document.body).fontSize);
  const figures = [];
  const images = [...document.querySelectorAll('article img')].filter(visible);
  for (const img of images) {
    if (!img.complete) await new Promise(r => { img.onload = r; img.onerror = r; });
    const src = img.currentSrc || img.src;
    const entry = {src: src.slice(0, 80), alt: img.getAttribute('alt') || '',
                   caption: '', shown: img.clientWidth, smallest: null, ratio: null};
    const figure = img.closest('figure');
    const caption = figure && figure.querySelector('figcaption');
    entry.caption = caption ? caption.innerText.trim() : '';
    entry.numbered = caption ? getComputedStyle(caption, '::before').content : '';
    if (src.split('#')[0].endsWith('.svg') || src.startsWith('data:image/svg+xml')) {
      const text = await (await fetch(src.split('#')[0])).text();
      const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
      const box = (svg.getAttribute('viewBox') || '').split(/\\s+/).map(Number);
      const sizes = [];
      for (const group of svg.querySelectorAll('g[id^="text_"], g[id^="kr-keep"]')) {
        let largest = 0;
        for (const el of [group, ...group.querySelectorAll('[transform]')]) {
          const found = /scale\\(([0-9.eE+-]+)/.exec(el.getAttribute('transform') || '');
          if (found) largest = Math.max(largest, Math.abs(parseFloat(found[1])));
        }
        if (largest > 0) sizes.push(largest * 100);  // matplotlib draws glyphs at 100 units per pt
      }
      if (sizes.length && box.length === 4) {
        entry.smallest = Math.min(...sizes) * img.clientWidth / box[2];
        entry.ratio = entry.smallest / body;
      }
    }
    figures.push(entry);
  }
  const doc = document.documentElement;
  return {
    body, figures,
    overflow: doc.scrollWidth - doc.clientWidth,
    broken: [...document.images].filter(i => visible(i) && (!i.complete || i.naturalWidth === 0))
              .map(i => i.src.slice(0, 80)),
    pending: [...document.querySelectorAll('.arithmatex')]
               .filter(e => !e.querySelector('.katex')).map(e => e.textContent.slice(0, 60)),
    katexErrors: document.querySelectorAll('.katex-error').length,
    raw: (document.querySelector('article') || document.body).innerText
           .match(/\\\\\\(|\\\\\\[|\\$\\$/g) || [],
    links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  };
}"""


@functools.cache
def _measured(browser, site_url, source, width, scheme):
    context, page, console, outside, failed = _open(browser, site_url, source, width, scheme)
    # Scroll through the page so that everything a reader would load is loaded.
    page.evaluate("""async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 700) {
        window.scrollTo(0, y); await new Promise(r => setTimeout(r, 40)); }
      window.scrollTo(0, 0); }""")
    page.wait_for_load_state("networkidle")
    measured = page.evaluate(MEASURE, FIGURE_TEXT_FLOOR)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = _url_path(source).strip("/") or "index"
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}-{scheme}.png"), full_page=True)
    internal = sorted({link.split("#")[0] for link in measured["links"]
                       if urlparse(link).hostname == "127.0.0.1"})
    measured["unresolved"] = [link for link in internal if not context.request.get(link).ok]
    measured.update(console=list(console), outside=list(outside), failed=list(failed))
    context.close()
    return measured


VIEWS = [(source, width, scheme) for source in PAGES for width in WIDTHS for scheme in SCHEMES]
IDS = [f"{_url_path(s).strip('/') or 'index'}-{w}-{c}" for s, w, c in VIEWS]


@pytest.mark.parametrize(("source", "width", "scheme"), VIEWS, ids=IDS)
def test_page_loads_clean(source, width, scheme, site_url, browser):
    measured = _measured(browser, site_url, source, width, scheme)
    assert not measured["outside"], f"requests left 127.0.0.1: {measured['outside']}"
    assert not measured["failed"], f"requests failed: {measured['failed']}"
    assert not measured["console"], f"console errors or warnings: {measured['console']}"
    assert not measured["broken"], f"images that did not load: {measured['broken']}"
    assert not measured["pending"], f"math left unrendered: {measured['pending']}"
    assert measured["katexErrors"] == 0, "KaTeX reported errors"
    assert not measured["raw"], f"raw TeX delimiters in the text: {measured['raw'][:5]}"
    assert not measured["unresolved"], f"internal links that do not resolve: " \
                                       f"{measured['unresolved']}"


@pytest.mark.parametrize(("source", "width", "scheme"), VIEWS, ids=IDS)
def test_no_sideways_scrolling(source, width, scheme, site_url, browser):
    measured = _measured(browser, site_url, source, width, scheme)
    assert measured["overflow"] <= 0, (
        f"the page is {measured['overflow']} px wider than the {width} px window")


@pytest.mark.parametrize(("source", "width", "scheme"), VIEWS, ids=IDS)
def test_figures_have_alt_text_captions_and_legible_lettering(source, width, scheme, site_url,
                                                               browser):
    measured = _measured(browser, site_url, source, width, scheme)
    for figure in measured["figures"]:
        where = f"{figure['src']} at {width} px, {scheme}"
        assert figure["alt"].strip(), f"{where} has no alt text"
        if figure["src"].startswith("data:"):
            continue  # the notebook's outputs: captions come from the notebook's cells
        assert figure["caption"], f"{where} has no caption"
        assert "Figure" in figure["numbered"], f"{where}: the caption is not numbered"
        if figure["ratio"] is not None:
            assert figure["ratio"] >= FIGURE_TEXT_FLOOR, (
                f"{where}: its smallest lettering shows at {figure['smallest']:.1f} px, "
                f"{figure['ratio']:.2f} of the {measured['body']:.0f} px body text "
                f"(the floor is {FIGURE_TEXT_FLOOR})")


# ---------------------------------------------------------------- once each


def _pages_with(selector, browser, site_url):
    for source in PAGES:
        context, page, *_ = _open(browser, site_url, source)
        found = page.query_selector(selector) is not None
        context.close()
        if found:
            yield source


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("where", ["prose", "math"])
def test_focusing_a_number_shows_its_provenance(where, width, site_url, browser):
    selector = "article span.fact" if where == "prose" else "article .katex [data-fact]"
    source = next(_pages_with(selector, browser, site_url), None)
    if source is None:
        pytest.skip(f"no page prints a number in {where}")
    context, page, console, *_ = _open(browser, site_url, source, width)
    fact = page.query_selector(selector)
    key = fact.get_attribute("data-fact")
    assert fact.get_attribute("tabindex") == "0", "a printed number is not keyboard reachable"
    page.keyboard.press("Tab")  # keyboard mode, as a reader who tabs would be
    fact.focus()
    popover = page.wait_for_selector("#kr-fact-popover", state="visible")
    page.wait_for_function(
        "!document.querySelector('#kr-fact-popover').innerText.includes('reading the manifest')")
    text = popover.inner_text()
    bracketed = key.replace("(", "[").replace(")", "]")
    assert bracketed in text or key in text, f"the popover does not name {key}: {text!r}"
    assert "Computed by" in text and "Value" in text
    assert "not in the manifest" not in text and "could not be read" not in text, text
    link = popover.query_selector("a")
    assert link and "/data/" in link.get_attribute("href")
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, "the popover leaves the screen"
    page.keyboard.press("Escape")
    assert not popover.is_visible()
    assert not console, console
    context.close()


def test_a_figure_opens_full_size(site_url, browser):
    source = next(_pages_with("a.kr-figure__open", browser, site_url), None)
    if source is None:
        pytest.skip("no page has a figure")
    context, page, console, outside, _ = _open(browser, site_url, source)
    link = page.query_selector("a.kr-figure__open.kr-light")
    link.scroll_into_view_if_needed()
    link.click()
    shown = page.wait_for_selector(".glightbox-container .gslide-image img", state="visible")
    assert shown.get_attribute("src").split("#")[0].endswith(".svg")
    page.keyboard.press("Escape")
    page.wait_for_selector(".glightbox-container", state="detached")
    assert not console and not outside, (console, outside)
    context.close()


def test_a_us_spelling_finds_the_page(site_url, browser):
    """'centering' (US) finds the pages that write 'centring' (the site's spelling);
    the spellings come from kreport.pages.glossary.notation.TERMS."""
    from kreport.pages.glossary.notation import TERMS

    term = next(term for term in TERMS if term.name == "centring")
    context, page, *_ = _open(browser, site_url, "index.md")
    if page.is_visible("input.md-search__input"):
        page.click("input.md-search__input")
    else:
        page.click("label[for='__search']")
    page.keyboard.type(term.also[0], delay=30)  # as a reader types: the theme reads keys
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    found = page.eval_on_selector_all(".md-search-result__link", "l => l.map(a => a.href)")
    assert any("/kernel-pca/" in link or "/kernel-pca-steps/" in link for link in found), found
    context.close()


def test_the_search_index_holds_no_tex(site_url, browser):
    context = browser.new_context()
    index = context.request.get(urljoin(site_url, "search/search_index.json")).json()
    context.close()
    for doc in index["docs"]:
        for field in ("title", "text"):
            text = doc[field]
            for raw in ("\\(", "\\[", "\\htmlData", "$$", "data-fact"):
                assert raw not in text, f"{doc['location']} {field} holds {raw!r}: {text[:200]}"


def test_footer_links_go_to_the_next_and_previous_pages(site_url, browser):
    sources = [source for source in PAGES]
    context, page, console, *_ = _open(browser, site_url, sources[1])
    following = page.query_selector("a.md-footer__link--next")
    preceding = page.query_selector("a.md-footer__link--prev")
    assert following and preceding, "no previous/next links in the footer"
    following.click()
    page.wait_for_load_state("networkidle")
    assert page.url.rstrip("/").endswith(_url_path(sources[2]).rstrip("/")), page.url
    page.query_selector("a.md-footer__link--prev").click()
    page.wait_for_load_state("networkidle")
    assert page.url.rstrip("/").endswith(_url_path(sources[1]).rstrip("/")), page.url
    assert not console, console
    context.close()
