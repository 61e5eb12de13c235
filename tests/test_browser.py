"""The built site in a real browser: headless Chromium against 127.0.0.1.

Every page in the navigation is opened at a phone's width (390 px) and a
desktop's (1280 px), in the light and the dark colour scheme. On each:

* it loads; the console shows no error and no warning; every image loads;
  all math is rendered by the local KaTeX (nothing raw left, no KaTeX error);
  no request leaves 127.0.0.1; every internal link resolves;
* the page does not scroll sideways (wide math and tables scroll inside
  themselves, and every such scroller is focusable, named, and fades at the
  edge that has more);
* every figure has alt text and a caption, and its lettering, as shown, is at
  least :data:`FIGURE_TEXT_FLOOR` of the body text's size (see there why);
* with ``make screenshots``, a full-page screenshot lands in
  test-artifacts/screenshots/ for a person to look at (``<page>-<width>-<scheme>.png``);
* axe-core finds nothing serious or critical (every rule on the light view; on the
  dark view, which has the same markup and layout, the rules colour or a figure's
  own drawing can change; the colour rules, contrast and links told apart from
  text, once per scheme, see :data:`CONTRAST_RULES`, the typeset maths by
  :data:`MATHS_INK` instead), and, at each width, the
  pointer reaches every printed
  number (every collapsed block opened).

All of these come from one opening of the page per width: it is measured in the
light scheme, then switched to the dark one as a reader's system setting switches
it, and measured again. Before measuring, the test lays out every block the style
sheet skips off screen, as the reader sees it once scrolled to, so axe audits that
laid-out page; Lighthouse (``make audit``) audits the page as it first loads.

And once each: focusing a printed number (in prose and in math) shows its
provenance; a figure opens full size and closes with Escape; a search for the
US spelling of a glossary term finds the pages that use the British one; the
previous/next links in the footer go where they say; a phone lays out the
glossary's entries only near the screen, and a link to the last symbol still
lands at the top.
"""

from __future__ import annotations

import fcntl
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urljoin, urlparse
from urllib.request import urlopen

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
#: Chromium's headless shell first: the same engine without the browser's own user
#: interface, which Playwright itself drives by default for headless runs. Debian
#: packages it (chromium-headless-shell); this module, on a prebuilt site, took 296
#: core-seconds on it against 439 on the full browser, and it opens a page in half the time.
CHROMIUM = (os.environ.get("KREPORT_CHROMIUM") or shutil.which("chromium-headless-shell")
            or shutil.which("chromium") or shutil.which("chromium-browser")
            or shutil.which("google-chrome") or shutil.which("google-chrome-stable"))
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
#: Full-page photographs of every view are for a person to look at (`make
#: screenshots`); they cost a tenth of the browser tests' time, so `make test` skips them.
TAKE_SCREENSHOTS = os.environ.get("KREPORT_SCREENSHOTS") == "1"
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


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that closes a page while a file is on its way (the test has moved
        # on) is not the site failing; anything else is still printed.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _built_once(tmp_path_factory) -> Path:
    """The committed docs/ built by mkdocs once per run. Under pytest-xdist every
    worker's scratch folder sits in the run's own, so the first worker to arrive
    builds there while the others wait on the lock, and then all serve that."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        site = tmp_path_factory.mktemp("site")
        _mkdocs_build(site)
        return site
    shared = tmp_path_factory.getbasetemp().parent
    site, done = shared / "site", shared / "site.built"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            _mkdocs_build(site)
            done.touch()
    return site


def _mkdocs_build(site: Path) -> None:
    environment = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                    "--site-dir", str(site)], cwd=ROOT, env=environment, check=True)


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    """The committed docs/ built by mkdocs into a scratch folder (or, with
    KREPORT_BROWSER_SITE=<folder>, a site already built there)."""
    given = os.environ.get("KREPORT_BROWSER_SITE")
    return Path(given) if given else _built_once(tmp_path_factory)


@pytest.fixture(scope="module")
def site_url(built_site):
    """The built site, served on 127.0.0.1."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = _QuietServer(("127.0.0.1", 0), handler)
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


def _open(browser, site_url, source, width=1280, scheme="light", wait_until="load"):
    """A page opened as a reader would, and settled (see :func:`_settle`); returns
    (context, page, what the console said, requests that left the site, requests
    that failed)."""
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  color_scheme=scheme)
    page = context.new_page()
    console, outside, failed = [], [], []
    # Requests on their way, for _settle (a quicker "networkidle" than Playwright's,
    # which waits half a second of quiet after the last one).
    pending = _PENDING[page] = set()
    page.on("request", lambda request: pending.add(request))
    page.on("requestfinished", lambda request: pending.discard(request))
    page.on("requestfailed", lambda request: pending.discard(request))
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    # An aborted request is the browser cancelling a load it no longer needs (a
    # figure variant it switched away from while the page scrolled), not the site
    # failing to serve it; every other failure is kept.
    page.on("requestfailed", lambda r: failed.append(r.url)
            if r.failure != "net::ERR_ABORTED" else None)

    def keep_local(route):
        host = urlparse(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", keep_local)
    url = urljoin(site_url, _url_path(source))
    response = page.goto(url, wait_until=wait_until)
    assert response is not None and response.ok, f"{url} answered {response and response.status}"
    page.evaluate("document.fonts.ready")
    _settle(page)
    return context, page, console, outside, failed


_PENDING: dict = {}


def _settle(page, quiet_frames: int = 2) -> None:
    """Wait until no request is on its way and the page has rendered ``quiet_frames``
    animation frames since (a request it starts then is waited for too)."""
    frames = f"""() => new Promise(r => {{ let n = {quiet_frames};
      const next = () => (--n > 0 ? requestAnimationFrame(next) : r());
      requestAnimationFrame(next); }})"""
    deadline = time.monotonic() + 30
    while True:
        while _PENDING[page] and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        page.evaluate(frames)
        if not _PENDING[page] or time.monotonic() >= deadline:
            return


MEASURE = """async (floor) => {
  const visible = (el) => el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null;
  const body = parseFloat(getComputedStyle(
      document.querySelector('article p') || document.body).fontSize);
  const figures = [];
  const images = [...document.querySelectorAll('article img')].filter(visible);
  for (const img of images) {
    // An image that never loads is reported (below, as broken) rather than waited for.
    if (!img.complete) await Promise.race([
      new Promise(r => { img.onload = r; img.onerror = r; }),
      new Promise(r => setTimeout(r, 10000))]);
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
    // the same in what the reader opens later (collapsed exercises and answers
    // are not in innerText): TeX written outside maths, or a matrix that left it
    rawCollapsed: (() => {
      const copy = (document.querySelector('article') || document.body).cloneNode(true);
      copy.querySelectorAll('.katex, script, style, code, pre').forEach(e => e.remove());
      return copy.textContent.match(/\\\\htmlData|\\\\begin\\{|\\\\\\(|\\\\\\[|\\$\\$/g) || [];
    })(),
    links: [...document.querySelectorAll('a[href]')].map(a => a.href),
    // a paragraph that opens with punctuation is the tail of a sentence that
    // Markdown cut in two (an HTML comment opening a line, a stray blank line)
    // every element that scrolls sideways: can a keyboard reach it, is it
    // named, and does it show that it scrolls (a fade at the edge with more)?
    scrollers: [...document.querySelectorAll('article *')].filter(el => {
        const style = getComputedStyle(el);
        return /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1
          && visible(el);
      }).map(el => ({what: (el.className.baseVal ?? el.className).slice(0, 40) || el.tagName,
                     text: el.textContent.trim().slice(0, 40),
                     focusable: el.tabIndex >= 0,
                     named: !!el.getAttribute('aria-label'),
                     cue: el.classList.contains('kr-more-right')
                          || el.classList.contains('kr-more-left')})),
    stranded: [...document.querySelectorAll('article p, article li')]
                .map(p => p.innerText.trim()).filter(text => /^[,.;:)]/.test(text))
                .map(text => text.slice(0, 60)),
  };
}"""


#: Internal links already fetched and whether they resolved: the same links recur on
#: every view of a page, and once each is enough.
_RESOLVED: dict[str, bool] = {}


#: A reader's pass through the page, a screen at a time, each rendered before the next.
SCROLL_THROUGH = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(r));
  const rendered = async () => { await frame(); await frame(); };
  for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
    window.scrollTo(0, y); await rendered(); }
  window.scrollTo(0, 0); }"""
#: The site's dark palette, chosen as the reader's switch chooses it.
DARK_PALETTE = """document.querySelector(
  "input[data-md-color-media='(prefers-color-scheme: dark)']").click()"""


def _measured(browser, site_url, source, width, scheme):
    """Everything the per-view tests check in one scheme (see :func:`_measured_view`)."""
    return _measured_view(browser, site_url, source, width)[scheme]


#: Whether every element of the article that scrolls sideways, and is shown, is marked
#: as such. One in a closed block (an exercise's answer) is marked when it is opened;
#: counted here, it made every view of a page with one wait out the whole delay.
SCROLLERS_MARKED = """() => [...document.querySelectorAll('article *')].every(el =>
  !(/(auto|scroll)/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1
    && el.checkVisibility())
  || el.classList.contains('kr-scrolls'))"""


@functools.cache
def _measured_view(browser, site_url, source, width):
    """Everything the per-view tests check, from one opening of the page at one width:
    a reader's view in the light scheme (measured, then photographed), axe-core's audit
    of it, and then, with every collapsed block opened, the pointer's reach to every
    printed number; then the same page switched to the dark scheme (the system's
    setting and the site's palette both), measured, photographed and audited for what a
    scheme changes. The schemes share the markup and the layout."""
    context, page, console, outside, failed = _open(browser, site_url, source, width, "light",
                                                    wait_until="load")
    # Scroll through the page so that everything a reader would load is loaded, a
    # screen at a time, each screen rendered before the next (a block the style sheet
    # skips off screen is measured by reader.js when it is rendered, as a reader sees it).
    page.evaluate(SCROLL_THROUGH)
    _settle(page)
    # Off-screen blocks skip layout until the reader nears them (extra.css), and a
    # skipped block has no caption text or width to read; every block has now been
    # on screen once, so lay them all out as the reader saw them, then measure.
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    _settle(page)
    # reader.js marks a scroller when its block is rendered, a slice at a time; on a
    # loaded machine the scroll above can outrun it, and a block forced visible sends
    # no event. If any scroller is unmarked, reader.js is asked to look again, as a
    # resized window asks it, and given a few seconds (then MEASURE reports it).
    if not page.evaluate(SCROLLERS_MARKED):
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page.evaluate("dispatchEvent(new Event('resize'))")
        try:
            page.wait_for_function(SCROLLERS_MARKED, timeout=5000, polling=100)
        except PlaywrightTimeout:
            pass
    views = {}
    for scheme in SCHEMES:
        if scheme != "light":
            page.emulate_media(color_scheme=scheme)
            # The palette follows the system's scheme when a page loads; an open page
            # changes only through the palette's own switch (Material's two palettes,
            # each with its media query). Switched with it, the page is as one loaded
            # under a dark system shows it: both the system's scheme and the palette dark.
            page.evaluate(DARK_PALETTE)
            page.wait_for_function(
                "document.body.getAttribute('data-md-color-scheme') === 'slate'", timeout=5000)
            # The figures' dark drawings show now; a reader's pass loads them, and ends
            # at the top, where the light view was measured.
            page.evaluate(SCROLL_THROUGH)
            _settle(page)
            # The theme eases colours over a moment (links, for one); measure the ends.
            page.evaluate("""() => Promise.all(document.getAnimations()
              .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
              .map(a => a.finished))""")
        measured = page.evaluate(MEASURE, FIGURE_TEXT_FLOOR)
        if TAKE_SCREENSHOTS:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = _url_path(source).strip("/") or "index"
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}-{scheme}.png"),
                            full_page=True)
        internal = sorted({link.split("#")[0] for link in measured["links"]
                           if urlparse(link).hostname == "127.0.0.1"})
        for link in internal:
            if link not in _RESOLVED:
                _RESOLVED[link] = context.request.get(link).ok
        measured["unresolved"] = [link for link in internal if not _RESOLVED[link]]
        measured["axe"] = _axe(page, None if scheme == "light" else DARK_RULES,
                               skip=CONTRAST_RULES)
        measured["maths_ink"] = []
        if width == CONTRAST_WIDTH[scheme]:
            measured["axe"] += _axe(page, CONTRAST_RULES, exclude=MATHS)
            measured["maths_ink"] = page.evaluate(MATHS_INK)
        # Where a number sits, and what lies over it, is layout, which the scheme leaves
        # alone.
        measured["pointer"] = page.evaluate(POINTER_HIT) if scheme == "light" else None
        measured.update(console=list(console), outside=list(outside), failed=list(failed))
        views[scheme] = measured
    context.close()
    _PENDING.pop(page, None)
    return views


VIEWS = [(source, width, scheme) for source in PAGES for width in WIDTHS for scheme in SCHEMES]
IDS = [f"{_url_path(s).strip('/') or 'index'}-{w}-{c}" for s, w, c in VIEWS]
LIGHT_VIEWS = [view for view in VIEWS if view[2] == "light"]
LIGHT_IDS = [name for view, name in zip(VIEWS, IDS, strict=True) if view[2] == "light"]


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
    assert not measured["rawCollapsed"], f"raw TeX in collapsed blocks: " \
                                         f"{measured['rawCollapsed'][:5]}"
    assert not measured["stranded"], f"sentences cut in two: {measured['stranded']}"
    assert not measured["unresolved"], f"internal links that do not resolve: " \
                                       f"{measured['unresolved']}"


@pytest.mark.parametrize(("source", "width", "scheme"), VIEWS, ids=IDS)
def test_no_sideways_scrolling(source, width, scheme, site_url, browser):
    measured = _measured(browser, site_url, source, width, scheme)
    assert measured["overflow"] <= 0, (
        f"the page is {measured['overflow']} px wider than the {width} px window")
    hidden = [scroller for scroller in measured["scrollers"]
              if not (scroller["focusable"] and scroller["named"] and scroller["cue"])]
    assert not hidden, f"sideways scrollers a keyboard cannot reach, or unmarked: {hidden}"


@pytest.mark.parametrize(("source", "width", "scheme"), VIEWS, ids=IDS)
def test_figures_have_alt_text_captions_and_legible_lettering(source, width, scheme, site_url,
                                                               browser):
    measured = _measured(browser, site_url, source, width, scheme)
    for figure in measured["figures"]:
        where = f"{figure['src']} at {width} px, {scheme}"
        assert figure["alt"].strip(), f"{where} has no alt text"
        assert not figure["src"].startswith("data:"), f"{where}: inline, not a file"
        if "notebook-output-" not in figure["src"]:  # a notebook's cells give its captions
            assert figure["caption"], f"{where} has no caption"
            assert "Figure" in figure["numbered"], f"{where}: the caption is not numbered"
        if figure["ratio"] is not None:
            assert figure["ratio"] >= FIGURE_TEXT_FLOOR, (
                f"{where}: its smallest lettering shows at {figure['smallest']:.1f} px, "
                f"{figure['ratio']:.2f} of the {measured['body']:.0f} px body text "
                f"(the floor is {FIGURE_TEXT_FLOOR})")


# axe-core, the engine of the browsers' own accessibility audits, at the
# version the pinned axe-playwright-python wheel carries (only its script is
# used). Every rule it runs by default (WCAG 2 A and AA, best practices);
# a serious or critical finding fails.
#: The rules that can find something in the dark scheme that the light one did not: the
#: two schemes share the markup and the layout (the scheme changes colours, and which of
#: a figure's two drawings shows), so the dark view is audited for colour and for its
#: own figures' text alternatives; every other rule has run on the light view.
DARK_RULES = ["color-contrast", "link-in-text-block", "image-alt", "svg-img-alt",
              "role-img-alt"]
#: The colour rules are audited once per scheme, the light one at the desktop width and
#: the dark one at the phone's: colour contrast, and whether a link stands out from the
#: text around it by more than its colour. Both are matters of colours and of a link's
#: decoration, which the width leaves alone, and they are most of axe's time (contrast
#: several seconds on a long page, the links half a second each run). Every other rule
#: runs at both widths; `make audit` (Lighthouse, a phone's screen) audits the light
#: contrast there too.
CONTRAST_RULES = ["color-contrast", "link-in-text-block"]
CONTRAST_WIDTH = {"light": 1280, "dark": 390}
#: The typeset maths: thousands of spans a page, which took half of axe's contrast time.
#: They take no colour or background of their own (MATHS_INK checks that, and the
#: contrast of each formula with what lies behind it), so axe's colour rules skip them.
MATHS = ".katex"
#: Each formula's ink against the first opaque background behind it, by WCAG's formula
#: (the ink's own transparency blended in, as Material's text colours have it), held to
#: the 4.5:1 of normal text; a formula whose parts are coloured or backed on their own,
#: or that sits on a picture or a see-through layer, is reported rather than judged.
MATHS_INK = """() => {
  const clear = 'rgba(0, 0, 0, 0)';
  const channels = colour => colour.match(/[\\d.]+/g).map(Number);
  const linear = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const problems = [];
  for (const formula of document.querySelectorAll('.katex')) {
    const where = formula.textContent.trim().slice(0, 40);
    const ink = getComputedStyle(formula).color;
    const odd = [...formula.querySelectorAll('*')].find(part => {
      const style = getComputedStyle(part);
      return style.color !== ink || style.backgroundColor !== clear
        || style.backgroundImage !== 'none' || style.opacity !== '1';
    });
    if (odd) { problems.push(`${where}: a part has a colour or background of its own`); continue; }
    let behind = null;
    for (let e = formula; e && !behind; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.backgroundImage !== 'none' || style.opacity !== '1') break;
      const colour = channels(style.backgroundColor);
      if (colour.length === 3 || colour[3] === 1) behind = colour;
      else if (colour[3] !== 0) break;
    }
    if (!behind) { problems.push(`${where}: no single opaque background behind it`); continue; }
    const [r, g, b, a = 1] = channels(ink);
    const shown = [r, g, b].map((c, i) => a * c + (1 - a) * behind[i]);
    const [hi, lo] = [luminance(shown), luminance(behind)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) problems.push(`${where}: contrast ${ratio.toFixed(2)}:1`);
  }
  return problems;
}"""
AXE_SCRIPT = """async ([only, skip, exclude]) => {
  const options = {resultTypes: ['violations']};
  if (only) options.runOnly = {type: 'rule', values: only};
  if (skip.length) options.rules = Object.fromEntries(skip.map(id => [id, {enabled: false}]));
  const context = exclude ? {include: [document], exclude: [[exclude]]} : document;
  const result = await axe.run(context, options);
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({rule: v.id, help: v.help, count: v.nodes.length,
                where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


def _axe(page, only: list[str] | None = None, skip: list[str] = (),
         exclude: str | None = None) -> list[dict]:
    """axe-core's serious and critical findings on ``page`` (every rule, or ``only``;
    less ``skip``; outside the elements ``exclude`` selects)."""
    import axe_playwright_python

    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(Path(axe_playwright_python.__file__).with_name("axe.min.js")))
    if only is not None:
        # axe runs every rule ``runOnly`` names, whatever ``rules`` disables.
        only, skip = [rule for rule in only if rule not in skip], ()
    return page.evaluate(AXE_SCRIPT, [only, list(skip), exclude])


@pytest.mark.parametrize(("source", "width", "scheme"), VIEWS, ids=IDS)
def test_accessibility_audit_finds_nothing_serious(source, width, scheme, site_url, browser):
    measured = _measured(browser, site_url, source, width, scheme)
    violations = measured["axe"]
    assert not violations, "axe-core finds: " + "; ".join(
        f"{v['rule']} ({v['help']}) on {v['count']} elements, e.g. {v['where']}"
        for v in violations)
    assert not measured["maths_ink"], f"maths hard to read: {measured['maths_ink'][:5]}"


def test_the_audit_runs_the_rules_it_is_told_and_skips_the_rest(browser):
    # Faint text: axe's contrast rule finds it when run, whether alone or among all
    # rules, and skipping the rule skips it in both forms (the dark views rely on it).
    context = browser.new_context()
    page = context.new_page()
    page.set_content('<html lang="en"><title>t</title><main><p style="color:#ccc;'
                     'background:#fff">faint</p></main></html>')
    assert [v["rule"] for v in _axe(page, ["color-contrast"])] == ["color-contrast"]
    assert "color-contrast" in [v["rule"] for v in _axe(page)]
    assert _axe(page, ["color-contrast", "image-alt"], skip=CONTRAST_RULES) == []
    assert "color-contrast" not in [v["rule"] for v in _axe(page, skip=CONTRAST_RULES)]
    # Excluded maths are left to MATHS_INK, which finds faint, coloured and backed
    # formulas, blends a see-through ink, and passes the site's own kind.
    page.set_content(
        '<html lang="en"><title>t</title><main style="background:#fff">'
        '<p><span class="katex" style="color:#aaa">faint</span></p>'
        '<p><span class="katex" style="color:rgba(0,0,0,0.3)">thin</span></p>'
        '<p><span class="katex"><span style="color:#f00">red</span></span></p>'
        '<p><span class="katex"><span style="background:#ff0">lit</span></span></p>'
        '<p><span class="katex" style="color:rgba(0,0,0,0.87)">body</span></p></main></html>')
    assert _axe(page, ["color-contrast"], exclude=MATHS) == []
    found = page.evaluate(MATHS_INK)
    assert [problem.split(":")[0] for problem in found] == ["faint", "thin", "red", "lit"]
    context.close()


# ---------------------------------------------------------------- once each


def _pages_with(selector, built_site):
    """The pages whose built HTML has an element ``selector`` matches (read from the
    files: the markup the selectors name is written by the build, not by a script)."""
    from bs4 import BeautifulSoup

    for source in PAGES:
        html = (built_site / _url_path(source) / "index.html").read_text(encoding="utf-8")
        if BeautifulSoup(html, "html.parser").select_one(selector) is not None:
            yield source


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("where", ["prose", "math"])
def test_focusing_a_number_shows_its_provenance(where, width, site_url, built_site, browser):
    selector = "article span.fact" if where == "prose" else "article .katex [data-fact]"
    source = next(_pages_with(selector, built_site), None)
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
    assert link and "/facts.html?page=" in link.get_attribute("href")
    # The link opens a readable view of the page's facts at this one, marked and in view.
    sheet = context.new_page()
    sheet.goto(link.get_attribute("href"))
    sheet.wait_for_selector(".fact--asked")
    target = sheet.evaluate("""() => { const t = document.querySelector('.fact--asked');
      return {id: t.id, text: t.innerText, focused: document.activeElement === t,
              top: t.getBoundingClientRect().top, height: innerHeight}; }""")
    assert target["id"] == bracketed, f"the view marks {target['id']}, not {bracketed}"
    assert bracketed in target["text"] and 0 <= target["top"] < target["height"], target
    assert target["focused"], "the asked-for fact does not take the focus"
    assert not _axe(sheet), "axe-core finds something on the facts view"
    sheet.close()
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, "the popover leaves the screen"
    page.keyboard.press("Escape")
    assert not popover.is_visible()
    # From the popover's link: Escape closes it for good and gives the number its
    # focus back; Tab goes on to what follows the number, not to the page's end.
    fact.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('#kr-fact-popover') !== null")
    page.keyboard.press("Escape")
    page.wait_for_timeout(100)
    assert not popover.is_visible(), "Escape from the popover's link opened it again"
    assert page.evaluate("(el) => document.activeElement === el", fact)
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.wait_for_timeout(100)
    after = page.evaluate("""(el) => {
      const next = document.activeElement;
      return {follows: !!(el.compareDocumentPosition(next) & Node.DOCUMENT_POSITION_FOLLOWING),
              gap: next.getBoundingClientRect().top - el.getBoundingClientRect().top};
    }""", fact)
    assert after["follows"] and abs(after["gap"]) < 900, f"Tab from the popover went to {after}"
    assert not console, console
    context.close()


#: Every printed number on a page, each scrolled to the middle of its scroller and the
#: screen, must be what the pointer lands on at its first line's centre (every
#: collapsed block opened, as a reader opens it). KaTeX's stacked rows once lay over
#: the numbers of a matrix's earlier rows.
POINTER_HIT = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const numbers = [...document.querySelectorAll('article [data-fact]')];
  const missed = [];
  for (const number of numbers) {
    if (!number.getClientRects().length) continue;
    number.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    const box = number.getClientRects()[0];
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!(hit && number.contains(hit))) {
      missed.push(number.getAttribute('data-fact') + ' under '
                  + (hit ? hit.tagName + '.' + hit.className : 'nothing'));
    }
  }
  return {count: numbers.length, missed: missed};
}"""


@pytest.mark.parametrize(("source", "width", "scheme"), LIGHT_VIEWS, ids=LIGHT_IDS)
def test_the_pointer_reaches_every_printed_number(source, width, scheme, site_url, browser):
    found = _measured(browser, site_url, source, width, scheme)["pointer"]
    assert not found["missed"], (f"{len(found['missed'])} of {found['count']} numbers "
                                 f"are covered: {found['missed'][:5]}")


def _contrast(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of two CSS rgb()/rgba() colours (alpha ignored)."""
    def luminance(colour):
        channels = [float(v) / 255 for v in colour[colour.index("(") + 1:-1].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_figure_opens_full_size(width, scheme, site_url, built_site, browser):
    """The lightbox shows the variant the page shows (the narrow one on a phone),
    with a caption at body size in the page's own colours."""
    source = next(_pages_with("a.kr-figure__open", built_site), None)
    if source is None:
        pytest.skip("no page has a figure")
    context, page, console, outside, _ = _open(browser, site_url, source, width, scheme)
    kind = "kr-dark" if scheme == "dark" else "kr-light"
    link = page.query_selector(f"a.kr-figure__open.{kind}")
    link.scroll_into_view_if_needed()
    link.click()
    shown = page.wait_for_selector(".glightbox-container .gslide-image img", state="visible")
    src = shown.get_attribute("src").split("#")[0]
    assert src.endswith("-narrow.svg" if width < 600 else ".svg"), src
    assert width < 600 or not src.endswith("-narrow.svg"), src
    caption = page.query_selector(".glightbox-container .gslide-desc")
    if caption and caption.inner_text().strip():
        size, colour, band = page.evaluate("""(el) => {
          const band = el.closest('.gslide-description');
          return [parseFloat(getComputedStyle(el).fontSize), getComputedStyle(el).color,
                  getComputedStyle(band).backgroundColor]; }""", caption)
        body = page.evaluate("parseFloat(getComputedStyle(document.querySelector('article p'))"
                             ".fontSize)")
        assert size >= 0.9 * body, f"caption at {size} px against {body} px body text"
        assert _contrast(colour, band) >= 4.5, (colour, band)
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


#: What a student types, and the words the first result's section title must
#: hold (the section that treats the topic, not one that mentions it).
SEARCHES = {
    "centering": ("centr",),
    "R2": ("r²",),
    "Nystrom": ("nyström",),
    "LOO": ("leave-one-out",),
    "leave-one-out": ("leave-one-out",),
}


def _search(page, query):
    page.evaluate("() => { const box = document.querySelector('input.md-search__input');"
                  " box.value = ''; box.dispatchEvent(new Event('input')); }")
    if page.is_visible("input.md-search__input"):
        page.click("input.md-search__input")
    else:
        page.click("label[for='__search']")
    page.keyboard.type(query, delay=30)  # as a reader types: the theme reads keys
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    page.wait_for_timeout(300)
    # the links in rank order: each page, then its sections (with a #fragment)
    return page.eval_on_selector_all(
        ".md-search-result__link",
        "links => links.map(a => ({href: a.getAttribute('href'),"
        " title: (a.querySelector('h1, h2') || a).innerText.trim()}))")


@pytest.fixture(scope="module")
def search_page(site_url, browser):
    """One open page whose search the queries share, as a reader searches again (each
    query clears the box first): the index is fetched and built once."""
    context, page, *_ = _open(browser, site_url, "index.md")
    yield page
    context.close()


@pytest.mark.parametrize("query", sorted(SEARCHES))
def test_a_search_finds_the_section_that_treats_it_first(query, search_page):
    """Both spellings, the typed forms of R² and Nyström, and LOO: the first hit
    is a section whose title names the topic; no tag chips are shown."""
    page = search_page
    found = _search(page, query)
    first = next(link for link in found if "#" in link["href"])["title"].lower()
    assert any(word in first for word in SEARCHES[query]), (query, found[:4])
    chips = page.eval_on_selector_all(".md-search-result .md-tag", "c => c.filter(e =>"
                                      " e.checkVisibility()).length")
    assert chips == 0


def test_a_page_loads_no_maths_script_and_no_search_index_until_search(site_url, browser):
    """The maths arrives rendered (no KaTeX script), and the search index is
    fetched only when the reader opens search, which then still finds."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(urljoin(site_url, _url_path("kernel-ridge.md")), wait_until="networkidle")
    page.wait_for_timeout(500)
    assert not [url for url in requested if "katex" in url and url.endswith(".js")]
    assert not [url for url in requested if "search_index" in url], requested
    assert page.query_selector_all(".katex"), "the maths did not arrive rendered"
    found = _search(page, "Cholesky")
    assert [url for url in requested if "search_index" in url]
    assert found, "search found nothing once opened"
    context.close()


LAID_OUT = """selector => [...document.querySelectorAll(selector)].map(element =>
    element.checkVisibility({contentVisibilityAuto: true}) &&
    [...element.children].every(child => child.checkVisibility({contentVisibilityAuto: true})))"""


def test_a_phone_lays_out_the_glossary_only_near_the_screen(site_url, browser):
    """The glossary's symbols are skipped entry by entry while off screen (extra.css),
    which is what keeps its start-up on a phone short; a link to a symbol far down
    still lands on it, laid out."""
    context, page, *_ = _open(browser, site_url, "glossary.md", width=390)
    # A symbol's maths is an element of its own, so checkVisibility can tell
    # whether the browser skipped it (a meaning's bare text cannot be asked).
    laid_out = page.evaluate(LAID_OUT, ".kr-symbols dt")
    assert len(laid_out) > 60 and 0 < sum(laid_out) < len(laid_out) / 3, (
        f"{sum(laid_out)} of {len(laid_out)} symbols laid out at load")
    anchor = page.evaluate("() => [...document.querySelectorAll('.kr-symbols dt [id]')].at(-1).id")
    page.goto(urljoin(site_url, _url_path("glossary.md")) + "#" + anchor)
    _settle(page)
    entry = page.locator(f".kr-symbols dt:has([id='{anchor}'])")
    box, header = entry.bounding_box(), page.locator("header").bounding_box()
    # Just below the header. The entries below it (the terms) are laid out entry by
    # entry too: skipped as one block, their estimate fell short, the page ended too
    # soon for the entry to reach the top, and it landed 200-480 px down.
    assert header["height"] - 1 <= box["y"] <= header["height"] + 120, (anchor, box)
    assert page.evaluate(LAID_OUT, f".kr-symbols dt:has([id='{anchor}'])") == [True]
    context.close()


def test_a_linked_target_is_put_back_when_the_page_moves_it_while_settling(site_url, browser):
    """If blocks above a link's target grow after the jump and the browser's scroll
    anchoring does not make up for it (it sometimes does not, on a busy phone),
    reader.js puts the target back at the top; once the reader scrolls, it stops."""
    context, page, *_ = _open(browser, site_url, "glossary.md", width=390)
    page.add_style_tag(content="html, body { overflow-anchor: none; }")  # no anchoring
    anchor = "approximate-feature-map"
    page.goto(urljoin(site_url, _url_path("glossary.md")) + "#" + anchor)
    _settle(page)
    entry = page.locator(f".kr-symbols dt:has([id='{anchor}'])")
    landed = entry.bounding_box()["y"]
    # the meaning just above the target, laid out since it is near the screen
    grow = f"""() => {{
      const above = document.getElementById('{anchor}').closest('dt').previousElementSibling;
      above.style.paddingTop = (parseFloat(getComputedStyle(above).paddingTop) + 200) + 'px';
    }}"""
    page.evaluate(grow)
    _settle(page)
    assert abs(entry.bounding_box()["y"] - landed) <= 4, (landed, entry.bounding_box())
    # The reader scrolls (a wheel turn, and the page moved at once rather than
    # smoothly, so that nothing is still moving when the next block grows): the page
    # is theirs again.
    page.evaluate("""() => { dispatchEvent(new WheelEvent('wheel', {deltaY: 10}));
      scrollBy({top: 10, behavior: 'instant'}); }""")
    _settle(page)
    before = entry.bounding_box()["y"]
    page.evaluate(grow)
    _settle(page)
    assert entry.bounding_box()["y"] >= before + 150, (before, entry.bounding_box())
    context.close()


def test_links_are_underlined_and_the_search_dialog_is_named(site_url, browser):
    """Links differ from text by more than colour; the search dialog has a name."""
    context, page, console, *_ = _open(browser, site_url, "ridge.md")
    decorations = page.eval_on_selector_all(
        "article p a:not(.claim-mark):not(.footnote-backref)",
        "links => links.map(a => getComputedStyle(a).textDecorationLine)")
    assert decorations and all("underline" in line for line in decorations), decorations
    assert page.get_attribute(".md-search[role=dialog]", "aria-label")
    assert not console, console
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


# ---------------------------------------------------------------- reading mode and the checks

AUDIT_SHOWN = """() => {
  const shown = (el) => el.checkVisibility();
  // a tick inside a closed block (an exercise's answer) shows once it is opened
  const ticks = [...document.querySelectorAll('article .claim-mark')]
    .filter(el => !el.closest('details:not([open])'));
  const blocks = [...document.querySelectorAll('article details.kr-checks')];
  const fact = document.querySelector('article p .fact');
  return {ticks: ticks.length, ticksShown: ticks.filter(shown).length,
          blocks: blocks.length, blocksShown: blocks.filter(shown).length,
          underline: getComputedStyle(fact).textDecorationLine,
          pressed: document.querySelector('.kr-checks-switch').getAttribute('aria-pressed')};
}"""


def _audit(page):
    return page.evaluate(AUDIT_SHOWN)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_reading_mode_is_the_default_and_the_switch_shows_the_checks(width, scheme, site_url,
                                                                     browser):
    """Reading mode hides the ticks, the audit block and the numbers' provenance
    styling; the header's switch reveals them by pointer and by keyboard, and the
    choice holds on the next page and the next visit."""
    context, page, console, *_ = _open(browser, site_url, "ridge.md", width, scheme)
    switch = page.get_by_role("button", name="Show the checks")
    assert switch.is_visible(), "no visible switch named 'Show the checks'"
    reading = _audit(page)
    assert reading["ticks"] > 0 and reading["blocks"] == 1, reading
    assert (reading["ticksShown"], reading["blocksShown"], reading["underline"],
            reading["pressed"]) == (0, 0, "none", "false"), reading
    box = switch.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box  # on the screen
    switch.click()
    shown = _audit(page)
    assert (shown["ticksShown"], shown["blocksShown"], shown["underline"],
            shown["pressed"]) == (shown["ticks"], 1, "underline", "true"), shown
    page.goto(urljoin(site_url, _url_path("choosing.md")), wait_until="load")
    assert _audit(page)["pressed"] == "true" and _audit(page)["ticksShown"] > 0
    # by keyboard: Tab reaches the switch from the top of the page; Space turns it off
    page.reload(wait_until="load")
    for _ in range(40):
        if page.evaluate("document.activeElement.classList.contains('kr-checks-switch')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reaches the switch")
    page.keyboard.press("Space")
    hidden = _audit(page)
    assert (hidden["ticksShown"], hidden["blocksShown"], hidden["pressed"]) == (0, 0, "false")
    page.reload(wait_until="load")
    assert _audit(page)["pressed"] == "false"
    assert not console, console
    context.close()


def test_a_link_to_a_claim_shows_it_in_reading_mode(site_url, browser):
    """A tick's target opens where the claim is listed, without changing the
    reader's choice for the next page."""
    context, page, console, *_ = _open(browser, site_url, "ridge.md")
    target = page.evaluate("new URL(document.querySelector('article .claim-mark').href).hash")
    page.goto(urljoin(site_url, _url_path("ridge.md")) + target, wait_until="load")
    assert page.locator(target).is_visible(), f"{target} is not shown"
    assert page.evaluate("localStorage.getItem('kr-checks')") is None
    assert not console, console
    context.close()


def _moved_anchors() -> dict[str, dict[str, str]]:
    from kreport.pages import all_pages

    return {page.slug: dict(page.moved_anchors) for page in all_pages() if page.moved_anchors}


MOVED = _moved_anchors()


@pytest.mark.parametrize("old", sorted(MOVED) or [pytest.param(
    "", marks=pytest.mark.skip(reason="no page has been split"))])
def test_old_links_to_moved_sections_still_arrive(old, site_url, browser):
    """Links made before a long page was split land on each section's new page:
    the old page's redirect map holds every declared move, every target page
    holds every anchor sent to it, and a real link (the first and the last
    move) arrives there with Back returning to where the reader was, not to the
    old page's stub. One navigation per target page, not one per anchor."""
    import json
    import re

    moves = MOVED[old]
    arrivals = {}
    for anchor, target in moves.items():
        slug, _, renamed = target.partition("#")
        arrivals[anchor] = (slug, renamed or anchor)
    html_text = urlopen(f"{site_url}{old}/").read().decode()
    found = re.search(r"var moved = (\{.*?\});", html_text)
    assert found, f"{old} has no redirect script"
    assert json.loads(found.group(1)) == {
        anchor: f"../{slug}/#{arrives}" for anchor, (slug, arrives) in arrivals.items()}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for slug in sorted({slug for slug, _ in arrivals.values()}):
        page.goto(f"{site_url}{slug}/", wait_until="domcontentloaded")
        wanted = sorted(arrives for target, arrives in arrivals.values() if target == slug)
        missing = page.evaluate("ids => ids.filter(id => !document.getElementById(id))", wanted)
        assert not missing, f"{slug} lacks the moved anchors {missing}"
    for anchor in (min(moves), max(moves)):
        slug, arrives = arrivals[anchor]
        page.goto(site_url)
        page.goto(f"{site_url}{old}/#{anchor}")
        page.wait_for_url(f"{site_url}{slug}/#{arrives}")
        page.go_back()
        # wait for the URL, not the load state: on a loaded machine go_back can
        # return before the back navigation commits; a trapped Back times out here
        page.wait_for_url(site_url)
    context.close()


def test_an_old_link_to_a_moved_playground_setting_keeps_the_setting(site_url, browser):
    """A link to one of a moved playground's settings, made while the playground was
    on the old page, opens the new page at that same setting."""
    from kreport.pages import all_pages

    moves = [(page.slug, target) for page in all_pages()
             for anchor, target in page.moved_anchors.items() if anchor == "playground"]
    if not moves:
        pytest.skip("no playground has moved")
    for old, new in moves:
        document = _document(site_url, f"{new}.md", browser)
        fragment = _fragment(document, sorted(document["presets"])[0])
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{site_url}{old}/#{fragment}")
        page.wait_for_url(f"{site_url}{new}/#{fragment}")
        context.close()


# ---------------------------------------------------------------- playgrounds

#: The pages with a playground, and three settings of each whose drawn values
#: are read back: (preset, a value its text shows, the chart and data set drawn).
PLAYGROUND_PAGES = {
    "kernel-pca-gamma.md": {"presets": ["ring-worked", "ideal-worked", "arc-pca", "four-linear"],
                            "chart": "coords", "x": "z1", "y": "z2",
                            "echo": ("ideal-worked", "tied_directions.radius_gap")},
    "kernel-ridge-penalty.md": {"presets": ["rbf-worked", "squared", "rbf-narrow", "linear-half"],
                                "chart": "fit", "x": "t", "y": "h",
                                "echo": ("squared", "polynomial_degrees.rows[1].r2")},
}
#: The budget of what the playgrounds add to their two pages together (libraries
#: included): bytes fetched by the page, its scripts, Vega and the data file.
PLAYGROUND_BUDGET_BYTES = 1.5e6

READ_DRAWN = """(a) => {
  const [id, chart, dataName, xField, yField] = a;
  const ground = window.krPlaygrounds[id];
  const view = ground.views[chart];
  if (!view) return {missing: Object.keys(ground.views), asked: a};
  const data = view.data(dataName);
  const x = view.scale('x'), y = view.scale('y');
  const items = [];
  const walk = (node) => {
    if (!node) return;
    if (node.items) node.items.forEach(walk);
    if (node.datum && node.x !== undefined && node.datum[xField] !== undefined
        && node.datum[yField] !== undefined && node.mark && node.mark.marktype === 'symbol') {
      items.push({dx: node.datum[xField], dy: node.datum[yField],
                  px: x.invert(node.x), py: y.invert(node.y)});
    }
  };
  walk(view.scenegraph().root);
  return {rows: data.map(d => [d[xField], d[yField]]), items,
          stats: [...ground.box.querySelectorAll('.kr-pg__stat dd')].map(e => e.textContent),
          shown: ground.box.getAttribute('data-kr-shown'), hash: location.hash,
          caption: ground.box.querySelector('.kr-pg__setting').textContent};
}"""


def _decoded(column, steps):
    if isinstance(column, dict) and "q" in column:
        return [q * column["s"] / steps for q in column["q"]]
    return column


def _expected(document, key, dataset, x_field, y_field, overlays=()):
    """The columns of one chart data set for a setting, as the data file holds them."""
    codes = dict(zip([c["name"] for c in document["controls"] if c["kind"] != "overlay"],
                     key.split("/"), strict=True))
    columns = {}
    for selector, part in document["shared"].items():
        name, code = selector.split("=")
        if codes.get(name) == code:
            columns.update(part.get("data", {}).get(dataset, {}))
    setting = document["settings"][key]
    columns.update(setting.get("data", {}).get(dataset, {}))
    for overlay in overlays:
        columns.update(setting.get("overlay", {}).get(overlay, {}).get("data", {})
                       .get(dataset, {}))
    steps = document["steps"]
    return list(zip(_decoded(columns[x_field], steps), _decoded(columns[y_field], steps),
                    strict=True))


def _same(drawn, expected, what):
    import numpy as np

    drawn, expected = np.asarray(drawn, dtype=float), np.asarray(expected, dtype=float)
    assert drawn.shape == expected.shape, f"{what}: {drawn.shape} drawn, {expected.shape} filed"
    np.testing.assert_allclose(drawn, expected, rtol=0, atol=1e-9, err_msg=what)


def _start(page, box="#playground"):
    page.click(f"{box} [data-kr-start]")
    page.wait_for_selector(f"{box}[data-kr-shown]", timeout=15000)


def _wait_shown(page, key):
    """Until the playground on the page (the theme may have swapped the page's content,
    and the playground with it) shows the setting ``key``."""
    page.wait_for_load_state("networkidle")
    page.wait_for_function("""k => {
      const ground = window.krPlaygrounds && window.krPlaygrounds.playground;
      return ground && ground.box.isConnected
        && ground.box === document.querySelector('#playground')
        && Object.keys(ground.views).length && ground.box.getAttribute('data-kr-shown') === k;
    }""", arg=key, timeout=30000)  # generous: the suite loads both cores


def _document(site_url, source, browser):
    context = browser.new_context()
    slug = _url_path(source).strip("/")
    document = context.request.get(urljoin(site_url, f"data/{slug}-playground.json")).json()
    context.close()
    return document


def _preset_key(document, preset):
    return "/".join(document["presets"][preset][c["name"]] for c in document["controls"]
                    if c["kind"] != "overlay")


def _fragment(document, preset):
    return "playground:" + ",".join(f"{name}={code}"
                                     for name, code in document["presets"][preset].items())


@pytest.mark.parametrize("source", sorted(PLAYGROUND_PAGES))
def test_every_number_a_playground_shows_opens_its_provenance(source, site_url, browser):
    """Each number in the playground's caption and statistics is a control like a printed
    number: focused, it opens the popover naming the playground, the setting and the
    value, the function that computed it, and the value it shows; Escape closes it."""
    document = _document(site_url, source, browser)
    context, page, *_ = _open(browser, site_url, source)
    _start(page)
    numbers = page.query_selector_all("#playground .kr-pg__fact")
    assert numbers, "the playground shows no number with provenance"
    shown = page.get_attribute("#playground", "data-kr-shown")
    values = document["settings"][shown]["values"]
    for number in numbers:
        assert number.get_attribute("tabindex") == "0"
        number.focus()
        popover = page.wait_for_selector("#kr-fact-popover", state="visible")
        text = popover.inner_text()
        name = number.get_attribute("data-fact").rsplit(".", 1)[1]
        assert f"[{shown}].{name}" in text and values[name] in text, text
        assert document["source"] in text and number.inner_text() == values[name], text
        page.keyboard.press("Escape")
        assert not popover.is_visible()
    context.close()


@pytest.mark.parametrize("source", sorted(PLAYGROUND_PAGES))
def test_a_playground_draws_the_data_files_values(source, site_url, browser):
    """Start it by pointer; for at least three settings (reached by links to them),
    every drawn point sits where the data file says and the text shows the data
    file's strings; the page's own printed number for a setting the prose
    discusses is what the playground shows there."""
    spec = PLAYGROUND_PAGES[source]
    document = _document(site_url, source, browser)
    context, page, console, outside, failed = _open(browser, site_url, source)
    # How fast it starts is not asserted here: under the suite's load a timed
    # assertion fails for the machine's sake, not the page's.
    _start(page)
    for preset in spec["presets"]:
        key = _preset_key(document, preset)
        page.evaluate("h => { location.hash = h; }", _fragment(document, preset))
        _wait_shown(page, key)
        overlays = [name for name, code in document["presets"][preset].items()
                    if code == "on" and any(c["name"] == name and c["kind"] == "overlay"
                                            for c in document["controls"])]
        drawn = page.evaluate(READ_DRAWN, ["playground", spec["chart"],
                                           "throws" if spec["chart"] == "fit" else "coords",
                                           spec["x"], spec["y"]])
        if spec["chart"] == "fit":
            curve = page.evaluate("""() => window.krPlaygrounds.playground.views.fit
                                     .data('curve').map(d => [d.t, d.h])""")
            expected = _expected(document, key, "curve", "t", "h", overlays)
            _same(curve, expected, f"{preset}: the curve")
            if overlays:
                half = page.evaluate("""() => window.krPlaygrounds.playground.views.fit
                                        .data('half_curve').map(d => [d.t, d.h])""")
                _same(half, _expected(document, key, "half_curve", "t", "h", overlays),
                      f"{preset}: the half-centred curve")
            weights = page.evaluate("""() => window.krPlaygrounds.playground.views.weights
                                       .data('weights').map(d => [d.t, d.a])""")
            _same(weights, _expected(document, key, "weights", "t", "a"),
                  f"{preset}: the dual weights")
        else:
            expected = _expected(document, key, "coords", "z1", "z2")
            _same(drawn["rows"], expected, f"{preset}: the coordinates")
        assert "missing" not in drawn, drawn
        assert drawn["items"], f"{preset}: nothing drawn"
        for item in drawn["items"]:  # each mark sits at its datum, read back through the scales
            span = max(abs(v) for pair in expected for v in pair) or 1.0
            assert abs(item["px"] - item["dx"]) <= 2e-3 * span
            assert abs(item["py"] - item["dy"]) <= 2e-3 * span
        values = {**document["settings"][key].get("values", {})}
        for overlay in overlays:
            values.update(document["settings"][key]["overlay"][overlay].get("values", {}))
        for value in values.values():
            assert any(value in stat for stat in drawn["stats"]), (preset, value, drawn["stats"])
        assert drawn["hash"] == "#" + _fragment(document, preset)
    # a setting the prose discusses shows the number the page prints
    preset, fact = spec["echo"]
    printed = page.eval_on_selector(f'[data-fact="{fact}"]', "e => e.textContent")
    page.click(f'a.kr-try[href$="#{_fragment(document, preset)}"]')
    _wait_shown(page, _preset_key(document, preset))
    stats = page.eval_on_selector_all("#playground .kr-pg__stat dd",
                                      "l => l.map(e => e.textContent)")
    assert any(printed in stat for stat in stats), (printed, stats)
    assert not console, console
    assert not outside, f"requests left the site: {outside}"
    assert not failed, failed
    context.close()


#: Pages whose prose draws playground settings in place, and the chart's two columns.
VIEW_PAGES = {"kernel-pca-gamma.md": ("coords", "z1", "z2")}


@pytest.mark.parametrize("source", sorted(VIEW_PAGES))
def test_a_setting_is_drawn_beside_the_sentence_that_rests_on_it(source, site_url, browser):
    """The settings a page's prose draws in place (a row of small charts): nothing of
    the playground is fetched until the reader scrolls near them; then every one
    draws exactly its setting's values from the data file and says its setting in
    words, and its link opens that setting in the playground with a history entry
    of its own, so Back returns to the sentence."""
    chart, x_field, y_field = VIEW_PAGES[source]
    document = _document(site_url, source, browser)
    context, page, console, outside, failed = _open(browser, site_url, source)
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    early = [url for url in fetched if url.endswith("-playground.json") or "/vega/" in url]
    assert not early, early
    figures = page.locator("figure.kr-views")
    assert figures.count(), f"{source} draws no setting in place"
    for index in range(figures.count()):
        figure = figures.nth(index)
        assert figure.get_attribute("data-kr-chart") == chart
        figure.scroll_into_view_if_needed()
        cells = figure.locator(".kr-view")
        for cell_index in range(cells.count()):
            cell = cells.nth(cell_index)
            cell.locator(".kr-view__chart svg").wait_for(timeout=15000)
            page.wait_for_function("c => c.getAttribute('data-kr-shown')",
                                   arg=cell.element_handle(), timeout=15000)
            fragment = cell.get_attribute("data-kr-setting")
            preset = next(name for name in document["presets"]
                          if _fragment(document, name) == fragment)
            key = _preset_key(document, preset)
            assert cell.get_attribute("data-kr-shown") == key
            drawn = cell.evaluate(f"c => c.krView.views[{chart!r}].data({chart!r})"
                                  f".map(d => [d[{x_field!r}], d[{y_field!r}]])")
            _same(drawn, _expected(document, key, chart, x_field, y_field),
                  f"{source}, view of {preset}")
            words = cell.locator(".kr-view__setting").inner_text()
            assert words.strip() and "could not" not in words, words
            caption = document["text"].get("caption", "")
            for name, value in document["settings"][key].get("values", {}).items():
                if "{" + name + "}" in caption:
                    assert value in words, (preset, name, value, words)
            label = cell.locator(".kr-view__chart").get_attribute("aria-label")
            assert label and document["charts"][chart]["description"] in label, label
    # The first view's link opens its setting in the playground; Back returns here.
    cell = figures.first.locator(".kr-view").first
    fragment = cell.get_attribute("data-kr-setting")
    preset = next(name for name in document["presets"] if _fragment(document, name) == fragment)
    before = page.evaluate("() => [location.hash, window.scrollY]")
    cell.locator("a.kr-view__open").click()
    _wait_shown(page, _preset_key(document, preset))
    assert page.evaluate("() => location.hash") == "#" + fragment
    header = page.evaluate("() => document.querySelector('.md-header').getBoundingClientRect()"
                           ".bottom")
    title_top = page.evaluate("() => document.querySelector('#playground')"
                              ".getBoundingClientRect().top")
    assert title_top >= header - 1, (title_top, header)
    page.go_back()
    page.wait_for_function("h => location.hash === h", arg=before[0], timeout=10000)
    page.wait_for_function("y => Math.abs(window.scrollY - y) < 40", arg=before[1],
                           timeout=10000)
    assert not console, console
    assert not outside and not failed, (outside, failed)
    context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_setting_round_trips_and_the_slider_is_even_on_a_log_scale(scheme, site_url, browser):
    """Switch the kernel away and back and γ is where it was (it used to drift to
    the nearest value of the other kernel's grid); the slider places γ by its
    logarithm, so equal distances are equal ratios; Reset meets contrast."""
    source = "kernel-pca-gamma.md"
    document = _document(site_url, source, browser)
    context, page, console, outside, _ = _open(browser, site_url, source, 1280, scheme)
    page.click(f'a.kr-try[href$="#{_fragment(document, "ring-worked")}"]')
    _wait_shown(page, _preset_key(document, "ring-worked"))
    gamma = document["presets"]["ring-worked"]["gamma"]
    shown = page.get_attribute("#playground", "data-kr-shown")
    for kernel in ("poly2", "rbf"):
        page.locator(f"#playground fieldset[data-control='kernel'] input[value='{kernel}']") \
            .check()
        page.wait_for_function("s => document.querySelector('#playground')"
                               ".getAttribute('data-kr-shown') !== s", arg=shown)
        shown = page.get_attribute("#playground", "data-kr-shown")
    assert shown == _preset_key(document, "ring-worked"), (shown, gamma)
    stops = page.evaluate("() => window.krPlaygrounds.playground.stopPositions('gamma')")
    values = {option["code"]: float(option["value"])
              for control in document["controls"] if control["name"] == "gamma"
              for option in control["options"]}
    import math

    first, last = stops[0], stops[-1]
    per_decade = (last["at"] - first["at"]) / math.log10(values[last["code"]]
                                                          / values[first["code"]])
    for stop in stops:
        expected = first["at"] + per_decade * math.log10(values[stop["code"]]
                                                         / values[first["code"]])
        assert abs(stop["at"] - expected) <= 1, (stop, expected)
    assert len({stop["at"] for stop in stops}) == len(stops), "two values share a position"
    colours = page.evaluate("""() => {
      const reset = document.querySelector('#playground .kr-pg__reset');
      const box = document.querySelector('#playground');
      return [getComputedStyle(reset).color, getComputedStyle(box).backgroundColor];
    }""")
    assert _contrast(*colours) >= 4.5, colours
    assert not console and not outside, (console, outside)
    context.close()


@pytest.mark.parametrize("source", sorted(PLAYGROUND_PAGES))
def test_playground_controls_answer_keyboard_and_pointer(source, site_url, browser):
    document = _document(site_url, source, browser)
    context, page, console, outside, _ = _open(browser, site_url, source)
    _start(page)
    ranges = [c for c in document["controls"] if c["kind"] == "range"]
    choices = [c for c in document["controls"] if c["kind"] == "choice"]
    switches = [c for c in document["controls"] if c["kind"] in ("switch", "overlay")]
    shown = page.get_attribute("#playground", "data-kr-shown")
    # keyboard: a range moves one stop with the arrow key, and is labelled
    for control in ranges:
        slider = page.locator(f"#playground-{control['name']}")
        if slider.is_disabled():
            continue
        assert page.locator(f"label[for='playground-{control['name']}']").inner_text().strip()
        slider.focus()
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("s => document.querySelector('#playground')"
                               ".getAttribute('data-kr-shown') !== s", arg=shown)
        now = page.get_attribute("#playground", "data-kr-shown")
        assert now in document["settings"]
        text = slider.get_attribute("aria-valuetext")
        assert text and control["describe"].split("{}")[0] in text
        shown = now
    # keyboard: a choice moves with the arrow keys
    choice = choices[0]
    page.locator(f"#playground fieldset[data-control='{choice['name']}'] input:checked").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("s => document.querySelector('#playground')"
                           ".getAttribute('data-kr-shown') !== s", arg=shown)
    shown = page.get_attribute("#playground", "data-kr-shown")
    # pointer: click an option, drag nothing, click a slider's track, tick a switch
    option = page.locator(f"#playground fieldset[data-control='{choice['name']}'] label").last
    option.click()
    page.wait_for_function("s => document.querySelector('#playground')"
                           ".getAttribute('data-kr-shown') !== s", arg=shown)
    shown = page.get_attribute("#playground", "data-kr-shown")
    for control in ranges:
        slider = page.locator(f"#playground-{control['name']}")
        if slider.is_disabled():
            continue
        box = slider.bounding_box()
        before = slider.input_value()
        page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)
        if slider.input_value() != before:
            page.wait_for_function("s => document.querySelector('#playground')"
                                   ".getAttribute('data-kr-shown') !== s", arg=shown)
            shown = page.get_attribute("#playground", "data-kr-shown")
            break
    else:
        pytest.fail("no slider answered a click on its track")
    for control in switches:
        toggle = page.locator(f"#playground-{control['name']}")
        before = page.evaluate("() => location.hash")
        toggle.click()
        page.wait_for_function("h => location.hash !== h", arg=before)
        assert f"{control['name']}=on" in page.evaluate("() => location.hash")
        toggle.press("Space")  # and back, by keyboard
        page.wait_for_function(f"() => location.hash.includes('{control['name']}=off')")
    # the setting is text, and a link restores it; reset goes back to the default
    hash_now = page.evaluate("() => location.hash")
    caption = page.inner_text("#playground .kr-pg__setting")
    assert caption.startswith("Showing ")
    page.click("#playground .kr-pg__reset")
    default_key = "/".join(document["default"][c["name"]] for c in document["controls"]
                           if c["kind"] != "overlay")
    _wait_shown(page, default_key)
    again = context.new_page()
    again.goto(urljoin(site_url, _url_path(source)) + hash_now, wait_until="networkidle")
    again.wait_for_selector("#playground[data-kr-shown]", timeout=15000)
    assert again.inner_text("#playground .kr-pg__setting") == caption
    assert not console, console
    assert not outside, outside
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_started_playground_fits_the_screen_in_both_schemes(width, scheme, site_url, browser):
    for source in sorted(PLAYGROUND_PAGES):
        context, page, console, outside, _ = _open(browser, site_url, source, width, scheme)
        _start(page)
        overflow = page.evaluate("() => document.documentElement.scrollWidth"
                                 " - document.documentElement.clientWidth")
        assert overflow <= 0, f"{source} at {width} px is {overflow} px too wide"
        colours = page.evaluate("""() => {
          const text = document.querySelector('#playground .kr-pg__chart svg text');
          return [getComputedStyle(document.body).backgroundColor, text.getAttribute('fill')];
        }""")
        ink = colours[1] or ""
        dark_ink = ink.lower() in ("#d5d8df", "#a9afbb")
        assert dark_ink == (scheme == "dark"), (source, scheme, colours)
        name = _url_path(source).strip("/")
        page.locator("#playground").screenshot(
            path=str(SCREENSHOTS / f"{name}-playground-{width}-{scheme}.png"))
        assert not console and not outside, (console, outside)
        context.close()


def test_the_playgrounds_stay_within_their_budget(site_url, browser):
    """Bytes and requests of each playground page, cold, at 1280 px, before and
    after starting its playground; what the playgrounds add to the two pages
    together stays under the budget."""
    added = 0
    for source in sorted(PLAYGROUND_PAGES):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        sizes = {}
        page.on("response", lambda r, sizes=sizes: sizes.__setitem__(r.url, len(r.body()))
                if r.ok and not r.url.startswith("data:") else None)
        page.goto(urljoin(site_url, _url_path(source)), wait_until="networkidle")
        before = sum(sizes.values())
        _start(page)
        page.wait_for_load_state("networkidle")
        after = sum(sizes.values())
        playground = sum(size for url, size in sizes.items()
                         if "/assets/vega/" in url or "playground" in url)
        print(f"{source}: {len(sizes)} requests, {before} bytes at load, {after} after starting"
              f" the playground; {playground} bytes are the playground's")
        added += playground
        context.close()
    assert added <= PLAYGROUND_BUDGET_BYTES, f"the playgrounds add {added} bytes"
