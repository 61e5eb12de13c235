"""The playgrounds keep the site's promise: what they show is what kreport computed.

* Where a playground's setting is one the prose discusses, the number it shows
  is the number the page prints (the same text where both print it to the same
  digits, else the playground's value printed the page's way gives the page's
  text): each page module lists these pairs in ``echoes()``.
* The committed data files are what the build writes now, by the drift rule;
  the drift rule lets a drawn value move by one rounding step and no more.
* What a data file holds is the grid the page computed: drawn columns decode to
  the computed arrays within the playground's tolerance, shown numbers are the
  computed ones formatted by the site's formatter.
* Checked against independent computations: the kernel PCA playground's ring
  at the worked gamma is the page's own fit; its fixed turn of a tied plane
  gives one picture whatever turn the solver returned; its reading of the
  groups is the sweep's; the kernel ridge playground's curve is KernelRidge's
  prediction and its half-centred line is the page's demonstration of the bug.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from kreport import KernelRidge, kernels
from kreport.report.numbers import format_number
from kreport.report.playground import Phrase, Shown, option_code, shown_within
from kreport.site.compare import differences, playground_differences
from kreport.site.markdown import dequantized, playground_steps, quantized
from kreport.site.results import flatten

from .conftest import PAGES, PATHS

GROUND_PAGES = [page for page in PAGES if page.playgrounds]
SLUGS = [page.slug for page in GROUND_PAGES]

pytestmark = pytest.mark.skipif(not GROUND_PAGES, reason="no page with a playground is built")


def _page(slug):
    return next(page for page in GROUND_PAGES if page.slug == slug)


def _module(page):
    import importlib

    return importlib.import_module(f"{page.module}.playground")


def _preset_key(tree, preset):
    return "/".join(tree["presets"][preset][control["name"]] for control in tree["controls"]
                    if control["kind"] != "overlay")


def _numbers(value) -> list[Shown]:
    if isinstance(value, Shown):
        return [value]
    if isinstance(value, Phrase):
        return [item for _, item in value.values if isinstance(item, Shown)]
    return []


@pytest.mark.parametrize("slug", SLUGS)
def test_a_setting_the_prose_discusses_shows_the_printed_number(site, slug):
    page = _page(slug)
    outcome = site.outcomes[slug]
    printed = {entry.key: entry for entry in outcome.log.printed if entry.filter == "num"}
    tree = outcome.result.playgrounds["playground"]
    document = json.loads(site.files[f"data/{page.slug}-playground.json"])
    echoes = _module(page).echoes()
    assert len(echoes) >= 3
    problems = []
    for preset, name, fact in echoes:
        key = _preset_key(tree, preset)
        assert fact in printed, f"{fact} is not printed by the page (no longer an echo?)"
        entry = printed[fact]
        from kreport.site.results import flat_facts

        value = flat_facts(outcome.result)[fact]
        candidates = [n for n in _numbers(tree["settings"][key]["values"][name])
                      if np.isclose(float(n.value), float(value), rtol=max(n.rtol, 1e-9))]
        if not candidates:
            problems.append(f"{preset} {name}: no number equal to {fact} = {value!r}")
            continue
        number = candidates[0]
        shipped = document["settings"][key]["values"][name]
        assert number.text() in shipped, (number.text(), shipped)
        options = {k: v for k, v in entry.options.items() if k in number.options()}
        if {k: v for k, v in number.options().items() if v not in (None, False)} == \
                {k: v for k, v in options.items() if v not in (None, False)}:
            if number.text() != entry.text:
                problems.append(f"{preset} {name}: shows {number.text()!r}, the page prints "
                                f"{entry.text!r} ({fact})")
        elif format_number(number.value, **options) != entry.text:
            problems.append(f"{preset} {name}: {number.value!r} printed the page's way is "
                            f"{format_number(number.value, **options)!r}, the page prints "
                            f"{entry.text!r} ({fact})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_committed_data_file_is_what_the_build_writes(site, slug):
    relative = f"data/{slug}-playground.json"
    path = PATHS.docs / relative
    assert path.exists(), f"docs/{relative} is not committed: run make docs"
    assert differences(relative, path.read_bytes(), site.files[relative]) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_the_data_file_holds_the_computed_grid(site, slug):
    page = _page(slug)
    spec = page.playgrounds[0]
    tree = site.outcomes[slug].result.playgrounds[spec.name]
    document = json.loads(site.files[f"data/{slug}-{spec.name}.json"])
    steps = document["steps"]
    assert document["rtol"] == spec.rtol and steps == playground_steps(spec.rtol)
    written = flatten({k: document[k] for k in ("settings", "shared")}, "", {})
    drawn = texts = 0
    for key, value in flatten({"settings": tree["settings"], "shared": tree["shared"]}, "",
                              {}).items():
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            column = {"s": written[f"{key}.s"], "q": [written[f"{key}.q[{i}]"]
                                                      for i in range(len(value))]}
            scale = float(np.max(np.abs(value)))
            assert np.max(np.abs(dequantized(column, steps) - value)) <= spec.rtol * scale / 2 \
                + 1e-12 * scale, key
            drawn += 1
        elif isinstance(value, Shown | Phrase):
            assert written[key] == value.text(), key
            texts += 1
    assert drawn > 100 and texts > 100
    # every setting a control can reach is in the file, and nothing else
    keyed = [c for c in document["controls"] if c["kind"] != "overlay"]
    for key in document["settings"]:
        codes = key.split("/")
        for control, code in zip(keyed, codes, strict=True):
            assert code == "-" or code in [o["code"] for o in control["options"]], (key, code)


def test_the_drift_rule_allows_one_rounding_step_and_no_more():
    values = np.array([0.5, -0.25, 0.1234567])
    rtol = 2e-3
    steps = playground_steps(rtol)
    base = {"format": "kreport playground, version 1", "rtol": rtol, "steps": steps,
            "settings": {"a": {"data": {"c": {"z": quantized(values, rtol)}}, "values":
                               {"s": "0.137"}}}}
    def encoded(document):
        return (json.dumps(document, separators=(",", ":")) + "\n").encode()

    one_step = json.loads(json.dumps(base))
    one_step["settings"]["a"]["data"]["c"]["z"]["q"][2] += 1
    assert playground_differences(encoded(base), encoded(one_step)) == []
    assert differences("data/p-playground.json", encoded(base), encoded(one_step)) == []
    far = json.loads(json.dumps(base))
    far["settings"]["a"]["data"]["c"]["z"]["q"][2] += 3
    assert playground_differences(encoded(base), encoded(far))
    text = json.loads(json.dumps(base))
    text["settings"]["a"]["values"]["s"] = "0.138"
    assert playground_differences(encoded(base), encoded(text))


def test_a_shown_number_keeps_only_the_digits_rounding_leaves_alone():
    assert shown_within(0.8729, 1e-12).text() == "0.873"
    assert shown_within(0.00259, 5e-6).text() == "0.003"
    assert shown_within(0.00259, 5e-5) is None
    assert shown_within(2.08e13, 9e10).text() == "2 × 10¹³"
    assert option_code(1e-9) == "1e-09" and option_code(0.005) == "0.005"


# ---------------------------------------------------------------- kernel PCA


@pytest.mark.skipif("kernel-pca-gamma" not in SLUGS, reason="kernel-pca-gamma is not built")
def test_kernel_pca_worked_setting_is_the_pages_fit(site):
    from kreport.pages.kernel_pca import fits

    tree = site.outcomes["kernel-pca-gamma"].result.playgrounds["playground"]
    setting = tree["settings"][_preset_key(tree, "ring-worked")]
    fitted = fits.rbf_fit("ring", 0.005)
    # plain numpy: the centred table's top eigenvectors, scaled, signed as drawn
    data = fits.rows("ring")
    distances = ((data[:, None, :] - data[None, :, :]) ** 2).sum(axis=2)
    table = np.exp(-0.005 * distances)
    n = len(table)
    centring = np.eye(n) - np.full((n, n), 1 / n)
    values, vectors = np.linalg.eigh(centring @ table @ centring)
    scores = vectors[:, ::-1][:, :2] * np.sqrt(values[::-1][:2])
    for j, name in enumerate(("z1", "z2")):
        drawn = setting["data"]["coords"][name]
        sign = np.sign(drawn @ scores[:, j])
        np.testing.assert_allclose(drawn, sign * scores[:, j], atol=1e-10)
        np.testing.assert_allclose(drawn, fitted.scores_[:, j], atol=1e-12)


def test_a_tied_plane_is_drawn_the_same_whatever_turn_the_solver_returned():
    from kreport.pages.kernel_pca import fits
    from kreport.pages.kernel_pca_gamma.playground import drawn_pair

    fitted = fits.rbf_fit("ideal", 0.005)  # directions two and three are tied
    values, scores = fitted.eigenvalues_, fitted.scores_
    first, second, tied = drawn_pair(values, scores)
    assert tied == (1, 2)
    for angle in np.linspace(0.1, 6.2, 7):
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        for mirror in (1.0, -1.0):
            other = scores.copy()
            other[:, 1:3] = scores[:, 1:3] @ turn @ np.diag([1.0, mirror])
            again = drawn_pair(values, other)
            np.testing.assert_allclose(again[0], first, atol=1e-12)
            np.testing.assert_allclose(again[1], second, atol=1e-12)


def test_the_playgrounds_reading_of_the_groups_is_the_sweeps():
    from kreport.pages.kernel_pca import fits, sweep
    from kreport.pages.kernel_pca_gamma.playground import groups, kernel_fit, reading

    for dataset in ("ring", "ideal"):
        for gamma in sweep.grid()[::7]:
            mine = reading(kernel_fit(dataset, "rbf", float(gamma)), groups(dataset)[0])
            theirs = fits.read(dataset, float(gamma))
            assert mine.singles == theirs.singles and mine.planes == theirs.planes


def test_three_groups_split_only_when_every_pair_does():
    from kreport.pages.kernel_pca_gamma.playground import signed_gap

    labels = np.array(["a", "a", "b", "b", "c", "c"])
    assert signed_gap([0, 1, 3, 4, 6, 7], labels) == pytest.approx(2.0)
    assert signed_gap([0, 1, 3, 4, 3.5, 7], labels) < 0


# ---------------------------------------------------------------- kernel ridge


@pytest.mark.skipif("kernel-ridge-penalty" not in SLUGS,
                    reason="kernel-ridge-penalty is not built")
def test_kernel_ridge_curve_and_half_centred_line(site):
    from kreport import data
    from kreport.pages.kernel_ridge.fits import half_centred_fit_for_demonstration
    from kreport.pages.kernel_ridge_penalty.playground import samples

    tree = site.outcomes["kernel-ridge-penalty"].result.playgrounds["playground"]
    throws = data.throws()
    setting = tree["settings"][_preset_key(tree, "rbf-worked")]
    times = samples("rbf", 1.0)
    model = KernelRidge(kernels.rbf(1.0), 1.0).fit(throws.rows, throws.target)
    np.testing.assert_allclose(setting["data"]["curve"]["h"], model.predict(times[:, None]),
                               rtol=1e-12)
    line = tree["settings"][_preset_key(tree, "linear-half")]
    slope, _ = half_centred_fit_for_demonstration(np.asarray(throws.rows),
                                                  np.asarray(throws.target), 1e-3)
    half = line["overlay"]["half"]["data"]["half_curve"]["h"]
    drawn_slope = (half[-1] - half[0]) / (samples("linear", None)[-1] - samples("linear", None)[0])
    assert drawn_slope == pytest.approx(float(slope[0]), rel=1e-6)


def test_the_no_script_link_reaches_the_playgrounds_data_file():
    """Without JavaScript a playground offers its data file; mkdocs serves a page
    from <slug>/ and leaves raw HTML alone, so the link must climb out of it."""
    import posixpath
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs"
    links = []
    for page in sorted(docs.glob("*.md")):
        for href in re.findall(r'<noscript>.*?href="([^"]+)"', page.read_text(), re.S):
            links.append(href)
            served = posixpath.normpath(posixpath.join(page.stem, href))
            assert (docs / served).is_file(), f"{page.name}: {href} does not reach a file"
    assert links, "no playground offers its data file"
