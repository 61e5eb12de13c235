"""What must hold of the site as a whole, checked by ``make docs`` and ``make test``.

* docs/ holds exactly the files the build writes plus the hand-written assets
  declared in ``docs/ASSETS`` (one glob per line): a page left behind by a
  renamed module, or a file written by hand, fails by name;
* the navigation in mkdocs.yml lists exactly the built pages and notebooks,
  each once;
* no digit reaches a rendered page outside a fact's mark-up: not in prose,
  headings, tables, figure captions, alt text, code or math. Digits that are
  notation rather than measurement (an index ``x_1``, a power ``a^2``, the
  divisor ``n - 1``) are allowed by :data:`STRUCTURAL`, a short list with a
  reason for each entry.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import yaml

from .citations import CITATION, FOOTNOTE_REFERENCE, split_references
from .markdown import MOVED_ANCHORS_OPENING, PROVENANCE_OPENING

# ---------------------------------------------------------------- files and navigation


def declared_assets(assets_list: Path) -> list[str]:
    lines = assets_list.read_text(encoding="utf-8").splitlines() if assets_list.exists() else []
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


#: Folders of docs/ that only the build writes: a file there that no page
#: writes any more is stale output (a figure a page stopped drawing).
GENERATED_FOLDERS = ("figures/", "data/")


def unaccounted_files(docs: Path, generated: set[str],
                      assets_list: Path) -> tuple[list[str], list[str]]:
    """(stale, problems): stale build output in the generated folders, which
    ``make docs`` removes; and files nobody writes anywhere else, or asset
    globs matching nothing, each a problem naming what to do."""
    globs = declared_assets(assets_list)
    present = sorted(path.relative_to(docs).as_posix() for path in docs.rglob("*")
                     if path.is_file())
    listing = assets_list.relative_to(docs).as_posix()
    stale, problems = [], []
    for relative in present:
        if relative in generated or relative == listing:
            continue
        if relative.startswith(GENERATED_FOLDERS):
            stale.append(relative)
        elif not any(fnmatch.fnmatchcase(relative, pattern) for pattern in globs):
            problems.append(
                f"docs/{relative} is not written by any page or notebook and is not a declared "
                f"asset: if it is left from a renamed or removed page, delete it; if it is "
                f"written by hand on purpose, add it to docs/{listing}"
            )
    for pattern in globs:
        if not any(fnmatch.fnmatchcase(relative, pattern) for relative in present):
            problems.append(f"docs/{listing} declares {pattern!r}, which matches no file; "
                            "remove the line")
    return stale, problems


def _nav_files(entries) -> list[str]:
    files = []
    for entry in entries:
        if isinstance(entry, str):
            files.append(entry)
        elif isinstance(entry, dict):
            for value in entry.values():
                files.extend(_nav_files(value) if isinstance(value, list) else [value])
    return files


def navigation(mkdocs_config: Path) -> list[str]:
    """The files the navigation lists, in order."""
    config = yaml.load(mkdocs_config.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    return _nav_files(config.get("nav", []))


def navigation_problems(mkdocs_config: Path, built: list[str]) -> list[str]:
    """The navigation must list every built page exactly once, and nothing else."""
    listed = navigation(mkdocs_config)
    problems = [f"mkdocs.yml lists {name} more than once" for name in sorted(set(listed))
                if listed.count(name) > 1]
    problems += [f"page {name} is built but not in the navigation of mkdocs.yml: add it"
                 for name in built if name not in listed]
    problems += [f"mkdocs.yml lists {name}, which no page or notebook builds: remove it"
                 for name in listed if name not in built]
    return problems


# ---------------------------------------------------------------- digits outside facts

#: Digits that are notation, not measurement. Each pattern is removed from
#: math before the search for digits; the comment says why it may stay.
STRUCTURAL = [
    (re.compile(r"_\{[^{}]*\}|_[0-9A-Za-z]"), "a subscript is an index"),
    (re.compile(r"\^\{[^{}]*\}|\^[0-9A-Za-z]"), "a superscript is a power or an inverse"),
    (re.compile(r"\\frac\{1\}|\\tfrac\{1\}|\\frac1|(?<![\d.])1\s*/"), "one over something"),
    (re.compile(r"\b[a-zA-Z]\s*[-+−]\s*1\b"), "n − 1, d + 1: one more or fewer than a symbol"),
    (re.compile(r"\\(?:mathbf|boldsymbol|mathbb)\s*\{?1\}?"), "the vector or matrix of ones"),
    (re.compile(r"(?:=|>|<|\\ge|\\le|\\geq|\\leq|\\ne|\\neq)\s*0(?![\d.])"),
     "a comparison with zero"),
    (re.compile(r"\\sqrt\{2\}"), "the root of two of a unit vector with two equal entries"),
    (re.compile(r"(?<![\d.])2\s*\\sigma"), "the 2σ² of the Gaussian kernel's width form"),
]
FACT_ELEMENT = re.compile(r'<(span|code) class="fact[^"]*" data-fact="[^"]*"[^>]*>.*?</\1>',
                          re.S)
MATH = re.compile(r"\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\)|\$[^$\n]+\$", re.S)
NUMBER_LITERAL = re.compile(r"(?<![A-Za-z_\d])\d+(?:[.,]\d+)*")
LIST_MARKER = re.compile(r"^[ \t]*\d+\.[ \t]", re.M)


def _remove_htmldata(text: str) -> str:
    """Drop every ``\\htmlData{fact=…}{…}`` (balanced braces) from TeX."""
    out, index, opener = [], 0, "\\htmlData{fact="
    while True:
        start = text.find(opener, index)
        if start < 0:
            out.append(text[index:])
            return "".join(out)
        out.append(text[index:start])
        position, groups = start + len("\\htmlData"), 0
        while groups < 2 and position < len(text):
            depth = 0
            while position < len(text):
                depth += {"{": 1, "}": -1}.get(text[position], 0)
                position += 1
                if depth == 0:
                    break
            groups += 1
        out.append(" ")
        index = position


#: The script a split page opens with (``markdown.moved_anchors_script``): markup
#: the build writes, never shown, whose anchors and code may hold digits.
MOVED_ANCHORS_SCRIPT = re.compile("^" + re.escape(MOVED_ANCHORS_OPENING) + r".*?</script>\n", re.M)


def stray_digits(text: str, where: str) -> list[str]:
    """Digits in rendered markdown that no fact printed, one message per line."""
    text = MOVED_ANCHORS_SCRIPT.sub("\n", text)  # keeps the line numbers
    # The reference list the build appended, and the footnote references to it:
    # a citation's digits (a volume, a year, a key like mercer_1909) come from
    # docs/references.bib, not from a typed measurement (kreport.site.citations).
    text, _ = split_references(text)
    text = FOOTNOTE_REFERENCE.sub(" ", text)
    text = FACT_ELEMENT.sub(" ", text)
    text = _remove_htmldata(text)
    text = re.sub(r"\]\([^)\s]*\)", "]", text)  # link and image targets
    text = re.sub(r"<[^>\n]+>", " ", text)  # tags and their attributes
    text = re.sub(r"\{[#:][^}\n]*\}", " ", text)  # attribute lists {#id .class}
    text = LIST_MARKER.sub(" ", text)  # numbered-list markers are markup

    def notation_only(match: re.Match) -> str:
        math = match.group(0)
        for pattern, _ in STRUCTURAL:
            math = pattern.sub(" ", math)
        return math.replace("\n", " ") + "\n" * match.group(0).count("\n")

    text = MATH.sub(notation_only, text)
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        found = NUMBER_LITERAL.findall(line)
        if found:
            problems.append(f"{where}, line {number}: {', '.join(found)} typed, not printed "
                            f"from a fact: {line.strip()[:100]}")
    return problems


def notebook_stray_digits(notebook: dict, where: str) -> list[str]:
    problems = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "markdown":
            problems += stray_digits("".join(cell["source"]), f"{where} cell {index}")
    return problems


def notebook_unchecked_comparisons(notebook: dict, where: str) -> list[str]:
    """The comparison check of a page, run on each of a notebook's markdown cells."""
    problems = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "markdown":
            problems += unchecked_comparisons("".join(cell["source"]), f"{where} cell {index}")
    return problems


def notebook_citations(notebook: dict, where: str) -> list[str]:
    """Citations and footnotes in a notebook's markdown: only pages turn ``[@key]``
    into footnotes (mkdocs-jupyter renders a notebook's markdown without the
    footnotes extension), so a notebook's would reach the reader raw."""
    problems = []
    for index, cell in enumerate(notebook["cells"]):
        source = "".join(cell["source"]) if cell["cell_type"] == "markdown" else ""
        if CITATION.search(source) or "[^" in source:
            problems.append(f"{where} cell {index}: a citation or footnote, which only a page "
                            "can have; link the page that cites it instead")
    return problems


# ---------------------------------------------------------------- comparisons without a claim

#: Words that state a relation between numbers. A sentence that prints two or
#: more facts and uses one of them must carry a claim mark (the page module
#: asserts the relation) or a reasoned exemption.
COMPARISON_WORDS = re.compile(
    r"\b(between|above|below|more|less|larger|smaller|exceeds?|exceeding|twice|half|closer|"
    r"further|farther|greater|fewer|higher|lower|than|wider|narrower|bigger|rises?|falls?|"
    r"grows?|shrinks?|same|equals?|agrees?|matches|beats?|outshines?|within)\b", re.I)
PROVENANCE_BLOCK = re.compile("^" + re.escape(PROVENANCE_OPENING) + r"\n(?:(?: {4}.*)?\n)*", re.M)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_$(\[<])|\n\s*\n|\n(?=\|)"
                          r"|\n(?=\s*(?:[-*+]|\d+\.)\s)|\n(?=\s*(?:!\[|</?figure|<figcaption))")
FACT_MARK = re.compile(r'data-fact="|\\htmlData\{fact=')
COVERED = re.compile(r'class="claim-mark"|<!-- unchecked: ')


HTML_TAG = re.compile(r"<[^>]+>")


def _plain_words(sentence: str) -> str:
    sentence = FACT_ELEMENT.sub(" ", sentence)
    sentence = _remove_htmldata(sentence)
    sentence = MATH.sub(" ", sentence)
    return HTML_TAG.sub(" ", sentence)


def unchecked_comparisons(text: str, where: str) -> list[str]:
    """Sentences that print two or more facts and compare them, with no claim mark."""
    text = PROVENANCE_BLOCK.sub("\n", text)
    text = re.sub(r"^```.*?^```", "\n", text, flags=re.S | re.M)  # code blocks
    problems = []
    for sentence in SENTENCE_END.split(text):
        if len(FACT_MARK.findall(sentence)) < 2 or COVERED.search(sentence):
            continue
        words = COMPARISON_WORDS.findall(_plain_words(sentence))
        if words:
            shown = re.sub(r"\s+", " ", _plain_words(sentence)).strip()[:140]
            problems.append(
                f"{where}: a sentence prints {len(FACT_MARK.findall(sentence))} facts and "
                f"compares them ({', '.join(sorted({w.lower() for w in words}))}) but no claim "
                f"checks it; add a claim with an id and mark the sentence with "
                f"{{{{ checked(\"section.id\") }}}}, or exempt it with {{{{ unchecked(\"why\") "
                f"}}}}: \u201c{shown}\u201d")
    return problems



def comments_opening_lines(text: str, where: str) -> list[str]:
    """Lines that open with an HTML comment and carry text after it.

    Markdown reads a line that starts with ``<!--`` (indented or not, even
    inside a list item) as a block of raw HTML, so
    the words after the comment fall out of their sentence into a paragraph of
    their own (", and every entry is huge" on a line by itself).
    """
    return [f"{where}:{number}: a line opens with an HTML comment and continues with "
            f"{line.split('-->', 1)[1].strip()[:20]!r}; Markdown cuts that text off into a "
            f"paragraph of its own. Put the marker at the end of the line before it"
            for number, line in enumerate(text.splitlines(), start=1)
            if line.lstrip().startswith("<!--") and "-->" in line
            and line.split("-->", 1)[1].strip()]

def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


BOUND_AFTER_WITHIN = re.compile(r'\bwithin\s+<span class="fact bound"')
#: A line Markdown reads as a link or footnote definition, not as text: the whole
#: line (and, for a footnote, the paragraph it opens) vanishes from the page.
DEFINITION_LINE = re.compile(r"^ {0,3}\[[^\]\n]+\]:", re.M)


def broken_table_rows(text: str, where: str) -> list[str]:
    """A table row split over lines (a multi-line matrix in a cell): Markdown ends the
    table there and prints the rest of the row, TeX and all, as text."""
    return [f"{where}:{number}: a table row does not end with '|' on its line, so the "
            "table stops there and the rest of the row is printed as raw text; keep each "
            "row on one line (a matrix in a cell needs a one-line macro)"
            for number, line in enumerate(text.splitlines(), start=1)
            if line.startswith("|") and not line.rstrip().endswith("|")]


def within_a_bound(text: str, where: str) -> list[str]:
    """"within below 10⁻¹²": a bound already says "below", so it reads after a noun
    ("a difference of", "agree to"), not after "within"."""
    return [f"{where}:{_line_of(text, match.start())}: 'within' is followed by a "
            "bound, which prints as 'below 10⁻ⁿ' ('within below'); write 'a difference "
            "{{ ... | num }}' or 'agree, differing by {{ ... | num }}'"
            for match in BOUND_AFTER_WITHIN.finditer(text)]


#: A printed number run into the next word ("2and"): a template's block tag at a
#: line's end swallows the newline that was the space (Jinja's trim_blocks).
GLUED_WORD = re.compile(r"(?<=\d)(?:and|or|to|the|of|with|in|is|its|at|for|from)\b")


def glued_words(text: str, where: str) -> list[str]:
    """A number printed with no space before the word after it."""
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in GLUED_WORD.finditer(HTML_TAG.sub("", line)):
            problems.append(f"{where}:{number}: a number runs into the word "
                            f"{match.group(0)!r} with no space; in the template, keep the "
                            "word on the same line as the tag before it")
    return problems


def definition_lines(text: str, where: str) -> list[str]:
    """Lines that start like a link or footnote definition (``[^key]: …``): Markdown
    takes them out of the text, and a citation that opens a line with a colon after
    it (``[@key]: …``, written ``[^key]: …``) swallows its whole paragraph. The
    footnote definitions the build appends for the citations are the exception."""
    text, _ = split_references(text)
    problems = []
    for match in DEFINITION_LINE.finditer(text):
        problems.append(f"{where}:{_line_of(text, match.start())}: a line starts with "
                        f"{match.group(0).strip()!r}, which Markdown reads as a link or "
                        "footnote definition (as it does a citation followed by a colon) "
                        "and removes from the page; reflow the paragraph so that the line "
                        "starts with a word")
    return problems

# ---------------------------------------------------------------- symbols and the glossary

#: TeX commands that are operators, spacing or layout, not symbols a reader must look up.
NOT_SYMBOLS = set(r"""
\exp \log \ln \sqrt \frac \tfrac \dfrac \sum \prod \max \min \arg \operatorname \mathrm \text
\textrm \textbf \mathbf \boldsymbol \mathbb \lVert \rVert \lvert \rvert \left \right \big \Big
\bigl \bigr \Bigl \Bigr \top \times \cdot \cdots \dots \ldots \vdots \ddots \ge \le \geq \leq
\ne \neq \approx \equiv \in \notin \to \mapsto \infty \pm \mp \quad \qquad \, \; \! \partial
\nabla \langle \rangle \begin \end \hat \bar \tilde \overline \underbrace \overbrace \mid
\tanh \cos \sin \det \operatorname \propto \sim \lim \sup \inf \forall \exists \ell
\displaystyle \phantom \hline \lceil \rceil \lfloor \rfloor \circ \Rightarrow \iff \implies
\cup \cap \subset \setminus \emptyset \varepsilon \epsilon \htmlData \tag \label \colon
""".split())


def markup_in_maths(text: str, where: str) -> list[str]:
    """HTML inside maths: a number printed with ``| num`` (or words with ``| text``)
    between dollars, which KaTeX would set as a row of letters and symbols."""
    problems = []
    for match in MATH.finditer(text):
        tag = re.search(r"<(?:span|code|a)\b[^>]*>", match.group())
        if tag:
            key = re.search(r'data-fact="([^"]*)"', tag.group())
            fact = f" ({key.group(1)})" if key else ""
            problems.append(f"{where}, line {_line_of(text, match.start())}: HTML inside maths"
                            f"{fact}; inside $...$ print a number with | tex, not | num")
    return problems


def math_symbols(text: str) -> set[str]:
    """The letters and symbol commands a page's mathematics uses (base forms)."""
    found: set[str] = set()
    for segment in MATH.findall(_remove_htmldata(text)):
        segment = re.sub(r"\\(?:text|textrm|operatorname|mathrm|textbf|begin|end)\{[^{}]*\}", " ",
                         segment)
        segment = re.sub(r"\\mathbb\s*\{?[A-Z]\}?", " ", segment)  # number sets: ℝ
        segment = segment.strip("$").replace(r"\(", "").replace(r"\)", "")
        for command in re.findall(r"\\[A-Za-z]+", segment):
            if command not in NOT_SYMBOLS:
                found.add(command)
        for letter in re.findall(r"(?<![\\A-Za-z])[A-Za-z](?![A-Za-z])",
                                 re.sub(r"\\[A-Za-z]+", " ", segment)):
            found.add(letter)
    return found


def known_symbols() -> set[str]:
    """Every symbol base the glossary lists (kreport/pages/glossary/notation.py)."""
    from kreport.pages.glossary.notation import SYMBOLS

    return {base for symbol in SYMBOLS for base in symbol.base} | {
        letter for symbol in SYMBOLS for letter in symbol.tex if letter.isalpha()
        and len(symbol.tex) == 1}


def unknown_symbols(text: str, where: str) -> list[str]:
    """Symbols a page's mathematics uses that the glossary does not list."""
    unknown = sorted(math_symbols(text) - known_symbols())
    if not unknown:
        return []
    return [f"{where}: the mathematics writes {unknown}, which the glossary does not list; add "
            "each to kreport/pages/glossary/notation.py (or write it with a listed one)"]
