"""What moved: the table `make docs` and the drift test show when facts change."""

from __future__ import annotations

import json

from kreport.site.moved import moved_facts, sentences_printing, site_moves, table


def _manifest(values: dict, rtol: float = 1e-7) -> bytes:
    return json.dumps({"default_rtol": rtol, "facts": [
        {"key": key, "value": value, "source": "m.s"} for key, value in values.items()]}).encode()


PAGE = ('The tallest throw reached <span class="fact" data-fact="throws.top" title="t">5.97'
        '</span> m. Nothing else.\n\nIn maths: $h = \\htmlData{fact=throws.rows(0)}{5.97}$.\n')


def test_a_moved_fact_is_listed_with_old_new_and_its_sentences():
    rows = moved_facts("ridge", _manifest({"throws.top": 5.92, "throws.n": 15}),
                       _manifest({"throws.top": 5.97, "throws.n": 15}), PAGE)
    assert [(row.key, row.old, row.new) for row in rows] == [("throws.top", 5.92, 5.97)]
    assert rows[0].sentences == ("The tallest throw reached 5.97 m.",)
    assert "ridge | throws.top | 5.92 → 5.97 | rtol 1e-07 | The tallest throw" in table(rows)


def test_a_move_inside_the_tolerance_is_not_listed():
    assert moved_facts("p", _manifest({"a": 1.0}), _manifest({"a": 1.0 + 1e-12}), "") == []


def test_appearing_and_disappearing_facts_are_listed():
    rows = moved_facts("p", _manifest({"old": 1}), _manifest({"new": 2}), "")
    assert {(row.key, row.old, row.new) for row in rows} == {("new", None, 2), ("old", 1, None)}


def test_maths_keys_are_found_through_their_tex_form():
    assert sentences_printing(PAGE, "throws.rows[0]") == ("In maths: $h = {5.97}$.",)


def test_site_moves_reads_the_committed_manifests(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ridge.json").write_bytes(_manifest({"throws.top": 5.92}))
    files = {"ridge.md": PAGE.encode(), "data/ridge.json": _manifest({"throws.top": 5.97}),
             "data/ridge-playground.json": b"{}"}
    assert [row.key for row in site_moves(files, tmp_path)] == ["throws.top"]


def test_a_fact_in_a_table_is_shown_by_its_row():
    table_page = ('| page | minutes |\n| --- | --- |\n'
                  '| kernel ridge | <span class="fact" data-fact="rows[0].minutes">90</span> |\n'
                  '| pca | <span class="fact" data-fact="rows[1].minutes">28</span> |\n')
    assert sentences_printing(table_page, "rows[1].minutes") == ("| pca | 28 |",)


def test_a_notebook_fact_is_shown_by_the_sentence_of_its_markdown_cell(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "clusters.json").write_bytes(_manifest({"fit.kept": 8, "old": 1}))
    notebook = {"cells": [
        {"cell_type": "code", "source": ["kept = 9\n"], "outputs": []},
        {"cell_type": "markdown", "source": [
            'It keeps <span class="fact" data-fact="fit.kept" title="t">nine</span>\n',
            "directions. Then more.\n"]}]}
    files = {"clusters.ipynb": json.dumps(notebook).encode(),
             "data/clusters.json": _manifest({"fit.kept": 9})}
    rows = {row.key: row for row in site_moves(files, tmp_path)}
    assert rows["fit.kept"].sentences == ("It keeps nine directions.",)
    assert rows["old"].line().endswith("(removed)")
