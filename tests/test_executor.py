"""The executor: every page, notebook and replica through one cached path."""

from __future__ import annotations

from kreport.pages import all_pages
from kreport.report.page import Page
from kreport.site import executor
from kreport.site.cache import CacheStore
from kreport.site.executor import Failed, Job
from kreport.site.results import result_to_json

from .conftest import REPOSITORY

PAGES = {page.slug: page for page in all_pages()}


def test_a_page_computes_to_the_same_bytes_whatever_else_its_process_computed_first():
    # Pages of one process share cached fits; the order they run in must not show.
    first, second = PAGES["kernel-ridge-start"], PAGES["kernel-ridge"]
    forwards = executor._in_subprocess([Job(first, 0, ""), Job(second, 0, "")], REPOSITORY)
    backwards = executor._in_subprocess([Job(second, 0, ""), Job(first, 0, "")], REPOSITORY)
    for before, after in ((forwards[0], backwards[1]), (forwards[1], backwards[0])):
        before.seconds = after.seconds = 0.0
        assert result_to_json(before) == result_to_json(after)


def test_a_replica_sketches_its_figures_and_draws_no_file():
    replica = executor._in_subprocess([Job(PAGES["kernel-ridge-start"], 1, "")], REPOSITORY)[0]
    assert replica.figures == {} and replica.figure_data == {}
    assert replica.figure_sketches and all(replica.figure_sketches.values())


def _counting_page(calls: list) -> Page:
    def answer():
        calls.append(1)
        return {"value": 2.5}

    return Page(slug="counted", title="Counted", template="home.md.j2", sections=[answer],
                module="kreport.pages.home")


def test_a_job_is_computed_once_and_then_read_from_the_cache(tmp_path):
    calls: list = []
    store = CacheStore(tmp_path / "cache")
    job = Job(_counting_page(calls), 0, "key-1")
    values, computed = executor.run([job], store, REPOSITORY, echo=lambda line: None)
    assert computed == [job] and values[job].facts == {"answer": {"value": 2.5}}
    again = Job(job.item, 0, "key-1")
    values, computed = executor.run([again], store, REPOSITORY, echo=lambda line: None)
    assert computed == [] and values[again].facts == {"answer": {"value": 2.5}}
    assert len(calls) == 1
    changed = Job(job.item, 0, "key-2")  # another input: computed again
    assert executor.run([changed], store, REPOSITORY, echo=lambda line: None)[1] == [changed]


def test_a_failing_page_is_a_value_naming_its_error_not_a_crash(tmp_path):
    def broken():
        raise ValueError("the fixture has no such column")

    page = Page(slug="broken", title="Broken", template="home.md.j2", sections=[broken],
                module="kreport.pages.home")
    job = Job(page, 0, "k")
    values, _ = executor.run([job], CacheStore(tmp_path), REPOSITORY, echo=lambda line: None)
    assert isinstance(values[job], Failed)
    assert "ValueError: the fixture has no such column" in values[job].message

