"""mkdocs hooks: what the reader's browser gets that markdown cannot say.

Registered in mkdocs.yml (``hooks:``); mkdocs calls each ``on_*`` function.

* **Figures** (:func:`on_page_content`). A page places a figure as
  ``<figure class="kr-figure">`` holding one markdown image of the wide SVG
  (see kreport.site.markdown). Here that image becomes, twice (light and
  dark, shown by the style sheet according to the reader's colour scheme),
  a link to the full-size figure around a ``<picture>`` that serves the
  narrow variant to screens narrower than :data:`NARROW_MEDIA` and the wide
  one to the rest. The dark copy points at the same files with the fragment
  ``#only-dark``, which switches on the dark style sheet inside each SVG
  (kreport.report.figures), so a scheme costs no request of its own. Width
  and height come from the SVG files, so the page does not jump as they load.
* **The notebook page**: its output images get alt text (the notebook's own
  ``alt`` metadata when a cell gives one, else a sentence naming the cell),
  its prompts and copy buttons are marked for the style sheet, and the
  JupyterLab style sheet mkdocs-jupyter inlines is cut to the rules the page
  uses (kreport.site.notebook_css).
* **Maths and numbers** (:func:`on_post_page`). Every formula is rendered
  to KaTeX's HTML here (kreport.site.katex), after the search plugin has
  read the page's text, so the index keeps the TeX it knows how to clean
  (below) and the reader's browser runs no maths script. Every printed
  number gets the attributes of a control that opens its provenance
  (:data:`kreport.site.katex.FACT_CONTROL`), so the browser need not visit
  thousands of them at load; docs/javascripts/reader.js does the rest on a
  number's first hover, focus or tap.
* **Search** (:func:`on_post_build`). The index mkdocs-material wrote holds
  each section's text as HTML, with the TeX that KaTeX renders in the reader's
  browser. Here every ``\\htmlData{fact=…}{x}`` becomes ``x``, inline math
  becomes the symbols it shows (``\\(\\gamma\\)`` → γ), display math and
  anything too structured to write as text is dropped, the notebook's
  prompts and duplicated code go, and each section whose text uses a term of
  the site's glossary (kreport.pages.glossary.notation.TERMS) with another
  spelling (``centring`` / ``centering``) gets that spelling as a search tag
  (hidden in results by the style sheet), so both spellings find it.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from pathlib import Path

from kreport.site import katex, notebook_css, search_entries
from kreport.site.cache import CacheStore, driver_digest
from kreport.site.notebooks import NARROW_KEY

#: Screens at most this wide get the narrow variant of every figure.
NARROW_MEDIA = "(max-width: 37.49em)"
DARK = "#only-dark"

FIGURE = re.compile(r'<figure class="kr-figure" id="(?P<id>[^"]+)">(?P<body>.*?)</figure>', re.S)
IMAGE = re.compile(r"<img (?P<attrs>[^>]*?)\s*/?>")
ATTRIBUTE = re.compile(r'([a-zA-Z-]+)="([^"]*)"')
SVG_SIZE = re.compile(rb'<svg[^>]*?\swidth="([0-9.]+)pt"\s+height="([0-9.]+)pt"')


def _svg_size(path: Path) -> tuple[int, int] | None:
    """The SVG's size in CSS pixels (matplotlib writes points)."""
    try:
        head = path.read_bytes()[:2000]
    except OSError:
        return None
    found = SVG_SIZE.search(head)
    if not found:
        return None
    return round(float(found.group(1)) * 4 / 3), round(float(found.group(2)) * 4 / 3)


def _picture(src: str, narrow: str, alt: str, wide_size, narrow_size, fragment: str,
             lazy: bool) -> str:
    wide_w, wide_h = wide_size
    narrow_w, narrow_h = narrow_size
    # Below the fold a figure loads when the reader scrolls near it; the first
    # one on a page may be in view at once, so it is not made to wait.
    loading = ' loading="lazy"' if lazy else ""
    return (f'<picture><source media="{NARROW_MEDIA}" srcset="{narrow}{fragment}" '
            f'width="{narrow_w}" height="{narrow_h}">'
            f'<img alt="{alt}" src="{src}{fragment}" width="{wide_w}" height="{wide_h}"'
            f'{loading} decoding="async"></picture>')


def _docs_file(docs_dir: Path, src: str) -> Path:
    """The file in docs/ an image URL names (figures live in docs/figures/)."""
    return docs_dir / src[src.rindex("figures/"):] if "figures/" in src else docs_dir / src


def figure_markup(body: str, docs_dir: Path, lazy: bool = True) -> str:
    """The figure's image as light and dark links around responsive pictures."""
    image = IMAGE.search(body)
    if image is None:
        return body
    attrs = dict(ATTRIBUTE.findall(image.group("attrs")))
    src, alt = attrs.get("src", ""), attrs.get("alt", "")
    if not src.endswith(".svg"):
        return body
    narrow = src[: -len(".svg")] + "-narrow.svg"
    wide_size = _svg_size(_docs_file(docs_dir, src))
    narrow_size = _svg_size(_docs_file(docs_dir, narrow))
    if wide_size is None or narrow_size is None:
        raise ValueError(f"figure {src}: the wide and narrow SVG files must both exist "
                         f"(looked for {narrow}); rebuild with `make docs`")
    links = []
    for scheme, fragment in (("light", ""), ("dark", DARK)):
        links.append(
            f'<a class="kr-figure__open kr-{scheme}" href="{src}{fragment}">'
            f"{_picture(src, narrow, alt, wide_size, narrow_size, fragment, lazy)}</a>")
    return body[: image.start()] + "".join(links) + body[image.end():]


def on_config(config, **kwargs):
    # The search plugin (configured before the hooks) has made its index by now.
    search_entries.install(config)
    return config


def on_page_content(html_text: str, page, config, files, **kwargs) -> str:
    docs_dir = Path(config["docs_dir"])

    seen = 0

    def rewrite(match: re.Match) -> str:
        nonlocal seen
        seen += 1
        body = figure_markup(match.group("body"), docs_dir, lazy=seen > 1)
        return f'<figure class="kr-figure" id="{match.group("id")}">{body}</figure>'

    if 'class="kr-figure"' in html_text:
        html_text = FIGURE.sub(rewrite, html_text)
    if page.file.src_path.endswith(".ipynb"):
        html_text = notebook_content(html_text, page, docs_dir, Path(config["site_dir"]))
        html_text = notebook_links(html_text, page, files)
    else:
        html_text = PLAIN_TABLE.sub(_wrapped_table, html_text)
    return html_text


#: A table as Markdown writes it (no attributes; tables do not nest).
PLAIN_TABLE = re.compile(r"<table>(?P<body>.*?)</table>", re.S)


def _wrapped_table(match: re.Match) -> str:
    # The theme's script wraps every table without a class in a scrolling box when
    # the page starts, moving it in a page already laid out: on a phone that was a
    # long task of its own (about 180 ms on the glossary, Lighthouse mobile). The box
    # is written here instead, and the class keeps the script off the table; the
    # theme's look for a plain table is given to the class in extra.css.
    return ('<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
            f'<table class="kr-table">{match.group("body")}</table></div></div>')


#: A number printed in prose, a table or code (kreport.report.render.fact_span);
#: the notebook's copy has its attributes in another order.
PROSE_FACT = re.compile(r'<(?P<tag>span|code) '
                        r'(?P<attrs>class="fact[^"]*"[^>]*?\sdata-fact="[^"]*"[^>]*?)'
                        r'\s*tabindex="0"(?P<rest>[^>]*)>')


def _fact_control(match: re.Match) -> str:
    return (f'<{match.group("tag")} {match.group("attrs")}{match.group("rest")} '
            f"{katex.FACT_CONTROL}>")


#: A link whose whole text is one inline formula (a glossary link on a symbol).
MATH_LINK = re.compile(r'<a (?P<attrs>[^>]*)><span class="arithmatex">'
                       r'\\\((?P<tex>[^<]*?)\\\)</span></a>', re.S)


def _named_math_link(match: re.Match) -> str:
    # KaTeX's visible HTML is hidden from assistive technology and its MathML
    # does not name a link, so the link says in words what it shows.
    name = tex_to_text(strip_html_data(html.unescape(match.group("tex"))))
    return (f'<a {match.group("attrs")} aria-label="{html.escape(name, quote=True)}">'
            f'<span class="arithmatex">\\({match.group("tex")}\\)</span></a>')


def on_post_page(output: str, page, config, **kwargs) -> str:
    """The page finished (maths rendered, numbers marked); a page whose HTML is
    unchanged since the last build is finished from ``.cache/``, since rendering
    every formula again was most of a one-page edit's rebuild."""
    where = page.file.src_path
    config_file = getattr(config, "config_file_path", None)
    if config_file is None:  # called without a site (a test of the finishing itself)
        return _finished(output, where)
    store = CacheStore(Path(config_file).parent / ".cache")
    name = where.replace("/", "_")
    key = hashlib.sha256(f"{where}\0{_finishing_digest()}\0{output}".encode()).hexdigest()[:32]
    stored = store.get("finished-pages", name, key)
    if stored is None:
        stored = _finished(output, where)
        store.put("finished-pages", name, key, stored)
    return stored


@functools.cache
def _finishing_digest() -> str:
    """What finishing a page depends on besides its HTML: this module, the
    renderer, the notebook's style pruning and the vendored KaTeX."""
    return hashlib.sha256(driver_digest("mkdocs_hooks.py", "katex.py", "notebook_css.py").encode()
                          + katex.KATEX_JS.read_bytes()).hexdigest()


def _finished(output: str, where: str) -> str:
    output = MATH_LINK.sub(_named_math_link, output)
    output = katex.render_page(output, where)
    if where.endswith(".ipynb"):
        output = katex.render_notebook_text(output, where)
        output = notebook_css.prune_styles(output)
    return PROSE_FACT.sub(_fact_control, output)


NOTEBOOK_LINK = re.compile(r'href="(?P<path>[A-Za-z0-9_./-]+\.(?:md|ipynb))(?P<anchor>#[^"]*)?"')


def notebook_links(html_text: str, page, files) -> str:
    """Links from the notebook's markdown to other pages, as mkdocs writes them for a
    markdown page (mkdocs-jupyter leaves ``page.md`` as it is, which the browser
    resolves below the notebook's own folder)."""
    def rewrite(match: re.Match) -> str:
        target = files.get_file_from_path(match.group("path"))
        if target is None:
            return match.group(0)
        return f'href="{target.url_relative_to(page.file)}{match.group("anchor") or ""}"'

    return NOTEBOOK_LINK.sub(rewrite, html_text)


# ---------------------------------------------------------------- the notebook

NOTEBOOK_IMAGE = re.compile(r'<img (?P<attrs>[^>]*?src="(?P<src>data:image/[^"]*)"[^>]*?)\s*/?>')
#: nbconvert's words for an image without alt text.
NO_DESCRIPTION = "No description has been provided for this image"
#: Parts of a notebook cell that are furniture, not text to search.
NOT_SEARCHED = re.compile(r'<(div|span) class="(jp-InputPrompt[^"]*|jp-OutputPrompt[^"]*|notice|'
                          r'clipboard-copy-txt)"')


def notebook_figures(path: Path) -> list[dict]:
    """For each image a notebook's outputs show, in order, what its cell's metadata
    says about it: ``{"alt": …, "caption": …}`` from the cell's ``kreport`` metadata
    (a dict for one figure, a list for several), else empty; and ``"narrow"``, the
    SVG drawn for a phone, where the build put one in the output's metadata."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    found = []
    for cell in document.get("cells", []):
        images = [output for output in cell.get("outputs", [])
                  if any(kind.startswith("image/") for kind in output.get("data", {}))]
        described = cell.get("metadata", {}).get("kreport", {})
        described = described if isinstance(described, list) else [described] * len(images)
        for index, output in enumerate(images):
            entry = described[index] if index < len(described) else {}
            entry = dict(entry) if isinstance(entry, dict) else {}
            narrow = output.get("metadata", {}).get(NARROW_KEY)
            if narrow:
                entry["narrow"] = narrow
            found.append(entry)
    return found


SVG_DATA = "data:image/svg+xml;base64,"


def _svg_with_dark_scheme(svg: bytes) -> bytes:
    """An SVG figure with the figures' dark style sheet inside."""
    from kreport.report.dark_scheme import DARK_FRAGMENT, with_dark_scheme

    if f'id="{DARK_FRAGMENT}"'.encode() in svg or b'<g id="figure_1">' not in svg:
        return svg
    try:
        return with_dark_scheme(svg)
    except ValueError:
        return svg


def _notebook_output_file(svg: bytes, name: str, page, site_dir: Path) -> tuple[int, int]:
    """Write a notebook's SVG output as the file ``name`` beside the page; its size.

    Inline, the notebook's figures were most of a 2 MB page, parsed before
    anything showed; as files they load like the site's own figures, lazily.
    """
    svg = _svg_with_dark_scheme(svg)
    folder = site_dir / Path(page.file.dest_path).parent
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(svg)
    size = _svg_size(folder / name)
    if size is None:
        raise ValueError(f"{page.file.src_path}: output figure {name} has no size in points; "
                         "draw it with matplotlib's SVG backend (new_figure)")
    return size


def _notebook_image(src: str, alt: str, narrow: str | None, count: int, page,
                    site_dir: Path | None) -> str:
    """A notebook's output image: files beside the page, the phone's variant
    served to narrow screens as the site's own figures are."""
    import base64

    loading = ' loading="lazy"' if count > 1 else ""
    if not src.startswith(SVG_DATA) or site_dir is None:
        return f'<img alt="{alt}" src="{src}"{loading} decoding="async" />'
    name = f"notebook-output-{count}.svg"
    wide_w, wide_h = _notebook_output_file(base64.b64decode(src[len(SVG_DATA):]), name, page,
                                           site_dir)
    image = (f'<img alt="{alt}" src="{name}" width="{wide_w}" height="{wide_h}"{loading} '
             'decoding="async" />')
    if not narrow:
        return image
    narrow_name = f"notebook-output-{count}-narrow.svg"
    narrow_size = _notebook_output_file(narrow.encode(), narrow_name, page, site_dir)
    return _picture(name, narrow_name, alt, (wide_w, wide_h), narrow_size, "", lazy=count > 1)


def notebook_content(html_text: str, page, docs_dir: Path, site_dir: Path | None = None) -> str:
    """The notebook's output images: alt text, a caption where its cell gives one,
    the figures' dark scheme, SVG outputs written as files into ``site_dir``;
    its prompts and copy-button text kept out of search."""
    html_text = NOT_SEARCHED.sub(lambda m: m.group(0) + " data-search-exclude", html_text)
    described = notebook_figures(docs_dir / page.file.src_path)
    count = 0

    def rewrite(match: re.Match) -> str:
        nonlocal count
        entry = described[count] if count < len(described) else {}
        count += 1
        attrs = match.group("attrs")
        given = re.search(r'\balt="([^"]*)"', attrs)
        alt = entry.get("alt") or (given.group(1) if given else "")
        if not alt or alt == NO_DESCRIPTION:
            alt = f"Output figure, the {_ordinal(count)} of the notebook {page.title}"
        image = _notebook_image(match.group("src"), html.escape(alt, quote=True),
                                entry.get("narrow"), count, page, site_dir)
        caption = entry.get("caption")
        if caption:
            return (f'<figure class="kr-figure kr-figure--notebook">{image}'
                    f"<figcaption>{html.escape(caption, quote=False)}</figcaption></figure>")
        return image

    return NOTEBOOK_IMAGE.sub(rewrite, html_text)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth")


def _ordinal(count: int) -> str:
    return ORDINALS[count - 1] if count <= len(ORDINALS) else "after the twelfth"


# ---------------------------------------------------------------- search

GREEK = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4),
    ("epsilon", 0x3B5), ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7),
    ("theta", 0x3B8), ("iota", 0x3B9), ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC),
    ("nu", 0x3BD), ("xi", 0x3BE), ("pi", 0x3C0), ("rho", 0x3C1), ("sigma", 0x3C3),
    ("tau", 0x3C4), ("phi", 0x3C6), ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8),
    ("omega", 0x3C9), ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398),
    ("Lambda", 0x39B), ("Sigma", 0x3A3), ("Phi", 0x3A6), ("Psi", 0x3A8), ("Omega", 0x3A9))}
SYMBOLS = {
    "top": "ᵀ", "times": "×", "cdot": "·", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "ne": "≠", "neq": "≠", "approx": "≈", "to": "→", "rightarrow": "→", "mapsto": "↦",
    "infty": "∞", "sum": "∑", "prod": "∏", "lVert": "‖", "rVert": "‖", "|": "‖",
    "ldots": "…", "dots": "…", "cdots": "…", "in": "∈", "pm": "±", "mid": "|", "sim": "~",
    "partial": "∂", "nabla": "∇", "propto": "∝", "langle": "⟨", "rangle": "⟩",
    "exp": "exp", "log": "log", "ln": "ln", "min": "min", "max": "max", "det": "det",
    "tr": "tr", "{": "{", "}": "}", "%": "%", "_": "_", "#": "#", "&": "&", "lbrace": "{",
    "rbrace": "}", ",": " ", ";": " ", ":": " ", "quad": " ", "qquad": " ", "!": "",
    " ": " ", "mathbf": "", "mathrm": "", "mathit": "", "boldsymbol": "", "text": "",
    "textrm": "", "operatorname": "", "mathcal": "", "mathbb": "", "left": "", "right": "",
    "big": "", "Big": "", "bigg": "", "Bigg": "", "bigl": "", "bigr": "", "Bigl": "",
    "Bigr": "", "displaystyle": "", "textstyle": "", "limits": "", "nolimits": "",
}
ACCENTS = {"tilde": "\u0303", "hat": "\u0302", "bar": "\u0304", "vec": "\u20d7",
           "dot": "\u0307", "overline": "\u0304", "widetilde": "\u0303", "widehat": "\u0302"}
SUPERSCRIPT = str.maketrans("0123456789+-−=()niT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ")
SUBSCRIPT = str.maketrans("0123456789+-−=()aeoxhklmnpstij", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ")
#: Formulas with these are not worth writing as text: they are dropped from the index.
STRUCTURED = re.compile(r"\\(begin|end|frac|dfrac|tfrac|sqrt|binom|matrix|array|cases|over)\b")
HTMLDATA = "\\htmlData{"


def _group(tex: str, start: int) -> tuple[str, int]:
    """The balanced ``{…}`` group starting at ``tex[start]`` and the index after it."""
    depth = 0
    for index in range(start, len(tex)):
        if tex[index] == "{":
            depth += 1
        elif tex[index] == "}":
            depth -= 1
            if depth == 0:
                return tex[start + 1:index], index + 1
    return tex[start + 1:], len(tex)


def strip_html_data(tex: str) -> str:
    """``\\htmlData{fact=…}{x}`` → ``x`` (nested ones too)."""
    while HTMLDATA in tex:
        start = tex.index(HTMLDATA)
        _, after_key = _group(tex, start + len(HTMLDATA) - 1)
        if after_key < len(tex) and tex[after_key] == "{":
            inner, end = _group(tex, after_key)
        else:
            inner, end = "", after_key
        tex = tex[:start] + inner + tex[end:]
    return tex


def _script(text: str, table: dict) -> str:
    converted = text.translate(table)
    # Only when every character has a small form; else keep the plain text.
    return converted if all(c != o or c in " " for c, o in zip(converted, text, strict=True)) \
        else text


def tex_to_text(tex: str) -> str:
    """What a short inline formula shows, as plain text ('' for a structured one)."""
    tex = strip_html_data(html.unescape(tex))
    if STRUCTURED.search(tex):
        return ""
    out: list[str] = []
    index = 0
    while index < len(tex):
        char = tex[index]
        if char == "\\":
            name = re.match(r"[A-Za-z]+|.", tex[index + 1:])
            word = name.group(0) if name else ""
            index += 1 + len(word)
            if word in ACCENTS:
                argument, index = _argument(tex, index)
                base = tex_to_text(argument)
                out.append(base[:1] + ACCENTS[word] + base[1:] if base else "")
            elif word in GREEK:
                out.append(GREEK[word])
            elif word in SYMBOLS:
                out.append(SYMBOLS[word])
            # any other command shows nothing that reads as text
        elif char in "^_":
            argument, index = _argument(tex, index + 1)
            text = tex_to_text(argument)
            out.append(_script(text, SUPERSCRIPT if char == "^" else SUBSCRIPT))
        elif char in "{}":
            index += 1
        elif char == "~":
            out.append(" ")
            index += 1
        else:
            out.append(char)
            index += 1
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _argument(tex: str, index: int) -> tuple[str, int]:
    while index < len(tex) and tex[index] == " ":
        index += 1
    if index >= len(tex):
        return "", index
    if tex[index] == "{":
        return _group(tex, index)
    if tex[index] == "\\":
        name = re.match(r"\\([A-Za-z]+|.)", tex[index:])
        return name.group(0), index + len(name.group(0))
    return tex[index], index + 1


MATH = re.compile(r"\\\[(?P<display>.*?)\\\]|\$\$(?P<display2>.*?)\$\$"
                  r"|\\\((?P<inline>.*?)\\\)|(?<![\\$])\$(?P<inline2>[^$]+?)\$", re.S)


def clean_index_text(text: str) -> str:
    """Index text without TeX: inline math as its symbols, display math dropped."""
    def replace(match: re.Match) -> str:
        inline = match.group("inline") if match.group("inline") is not None \
            else match.group("inline2")
        if inline is None:
            return " "
        return tex_to_text(inline)

    text = MATH.sub(replace, text)
    text = strip_html_data(text)
    return re.sub(r"[ \t]{2,}", " ", text)


PROMPT = re.compile(r"(?:In|Out)\s*\[[^\]]*\]:\s*|Copied!\s*")


def spelling_tags(text: str) -> list[str]:
    """The other spellings of the glossary's terms that ``text`` uses (from TERMS),
    and what a reader may type for the names in SEARCH_ALIASES."""
    from kreport.pages.glossary.notation import SEARCH_ALIASES, TERMS

    lowered = text.lower()
    found = []
    for term in TERMS:
        for other in term.also:
            # The stem the two spellings share, plus the next letter of the
            # site's one: "centr" for centring / centering, "normalis" for
            # normalise / normalize, so that centred and normalised count too.
            name, spelled = term.name.lower(), other.lower()  # "Cholesky" in both
            shared = 0
            while shared < min(len(name), len(spelled)) and name[shared] == spelled[shared]:
                shared += 1
            stem = name[: shared + 1]
            if re.search(rf"\b{re.escape(stem)}", lowered) and other not in found:
                found.append(other)
    for name, others in SEARCH_ALIASES.items():
        if name.lower() in lowered:
            found += [other for other in others if other not in found]
    return found


def on_post_build(config, **kwargs) -> None:
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not path.exists():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    for doc in index["docs"]:
        text = doc.get("text", "")
        if _is_notebook(doc["location"], config):
            text = PROMPT.sub("", text)  # in case a prompt escaped data-search-exclude
        doc["text"] = clean_index_text(text).strip()
        doc["title"] = clean_index_text(doc.get("title", "")).strip()
        # A section whose title names the term is tagged with its other
        # spellings (the search boosts tags, so it ranks first); one that only
        # uses it carries them in its text, which finds it without a boost.
        titled = [tag for tag in spelling_tags(doc["title"]) if tag not in doc.get("tags", [])]
        if titled:
            doc["tags"] = [*doc.get("tags", []), *titled]
        used = [tag for tag in spelling_tags(doc["text"]) if tag not in titled]
        if used:
            doc["text"] += " " + " ".join(used)
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")),
                    encoding="utf-8")


def _is_notebook(location: str, config) -> bool:
    page = location.split("#")[0].strip("/")
    docs_dir = Path(config["docs_dir"])
    return bool(page) and (docs_dir / f"{page}.ipynb").exists()
