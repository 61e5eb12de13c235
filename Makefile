# Two commands do everything: `make docs` and `make test` (see README.md).
# Both create .venv when it is missing and install the pinned versions.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
export NO_MKDOCS_2_WARNING := 1
export PYTHONHASHSEED := 0

.PHONY: docs test accept serve timings bench bench-preview audit screenshots lint clean

# uv, at the lock's version, installs the lock: the same packages as pip, in
# about 11 s rather than 46 (it links from its cache and compiles the bytecode on
# every core). The bytecode is compiled at install, as pip does: with
# PYTHONDONTWRITEBYTECODE set (as on these machines) nothing would write it
# later, and every process would compile what it imports (2.0 s -> 5.5 s to
# import the lock's main packages).
UV_PIN := $(shell grep -m1 '^uv==' requirements.lock)
UV     := $(VENV)/bin/uv

$(STAMP): pyproject.toml requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check $(UV_PIN)
	$(UV) pip install --quiet --python $(PY) --compile-bytecode -r requirements.lock
	$(UV) pip install --quiet --python $(PY) --no-deps --no-build-isolation -e .
	touch $(STAMP)

docs: $(STAMP)
	$(PY) scripts/build_site.py

test: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/actionlint   # .github/workflows/*.yml
	$(PY) -m pytest

# An intended change: docs/ and every regression baseline, together, or nothing.
accept: $(STAMP)
	$(PY) scripts/accept.py

serve: $(STAMP)
	$(PY) scripts/serve.py --dev-addr 127.0.0.1:8000

timings: $(STAMP)
	$(PY) scripts/refresh_timings.py

bench: $(STAMP)
	$(PY) scripts/bench.py

# How soon `make serve` shows a saved template edit in an open browser.
bench-preview: docs
	$(PY) scripts/bench_preview.py

# Lighthouse on a phone (mobile emulation, gzip), every page or PAGES="slug ...",
# each judged by the median of RUNS runs (3); floors: performance 90,
# accessibility 100. Needs npm once (the registry only).
audit: docs
	test -x audit/node_modules/.bin/lighthouse || npm ci --prefix audit --no-audit --no-fund
	$(PY) scripts/audit.py --runs $(or $(RUNS),3) $(PAGES)

# A full-page photograph of every page at 390 and 1280 px, light and dark, in
# test-artifacts/screenshots/, for a person to look at (make test skips them).
screenshots: $(STAMP)
	KREPORT_SCREENSHOTS=1 $(PY) -m pytest tests/test_browser.py -q -k page_loads_clean

lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/actionlint

clean:
	rm -rf site .cache .pytest_cache
