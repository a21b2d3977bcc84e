# Two commands on a fresh clone:
#   make all    set up .venv and rebuild every number   (offline: make all CONFIG="../shared/offline.yaml ../shared/documents.yaml")
#   make test   set up .venv and run the tests
PYTHON ?= python3
VENV ?= .venv
CORES ?= 4
CONFIG ?=
BIN := $(VENV)/bin
SNAKEMAKE_CONFIG := $(if $(CONFIG),--configfile $(CONFIG),)

.PHONY: setup all test lint bench report clean lock

setup: $(VENV)/.installed

# The lock pins every package (dependencies of dependencies too), so it installs with
# --no-deps: the same lock gives the same environment, and so the same bytes out.
$(VENV)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-deps -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# Before the run: the config files through reagree's strict YAML reader, and the lock an
# interrupted run left cleared, but only when no run of this folder is alive (each run holds
# .snakemake/reagree-run.lock for its whole life; reagree.pipeline.runs). Incomplete-file
# markers are safe to rerun, because every output is written atomically.
all: setup
	$(BIN)/python -m reagree.pipeline.runs $(CONFIG)
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_CONFIG) --rerun-incomplete

# -n auto: one pytest-xdist worker per core (at most 4); the shared builds of tests/conftest.py
# are made once for all workers. --durations: the slowest tests are printed, so a test that
# became slow shows in CI's log.
test: setup
	$(BIN)/python -m pytest -n auto --maxprocesses=4 --durations=15

# Lint reads the Snakefile under CONFIG but no data and no network (an --lint run is
# neither a run nor a dry run: reagree.pipeline.runs.invocation). Then the code's style:
# ruff's lint rules and its format check over the Python (pyproject.toml's [tool.ruff]) and
# snakefmt's check over the Snakemake files; all three run, and lint fails if one did.
SNAKEMAKE_FILES = Snakefile $(wildcard workflow/rules/*.smk) $(wildcard workflow/papers/*/rules.smk)

lint: setup
	$(BIN)/python -m reagree.pipeline.runs --check $(CONFIG)
	$(BIN)/snakemake $(SNAKEMAKE_CONFIG) --lint
	status=0; \
	$(BIN)/ruff check . || status=1; \
	$(BIN)/ruff format --check --output-format concise . || status=1; \
	$(BIN)/snakefmt --check $(SNAKEMAKE_FILES) || status=1; \
	exit $$status

bench: setup
	$(BIN)/python bench/bootstrap.py

report: setup
	$(BIN)/python -m reagree.pipeline.runs $(CONFIG)
	$(BIN)/snakemake --cores 1 $(SNAKEMAKE_CONFIG) results/report.html

clean:
	rm -rf results logs .snakemake

# Re-resolve the dependencies of pyproject.toml into requirements.lock (needs PyPI).
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -e '.[test,cluster,tools]'
	.lock-venv/bin/python -m pip install --quiet --no-deps irrCAC==0.4.4
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --exclude-editable | grep -v '^reagree'; } > requirements.lock.new
	mv requirements.lock.new requirements.lock
	rm -rf .lock-venv
