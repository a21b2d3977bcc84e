# Two commands on a fresh clone:
#   make all    set up .venv and rebuild every number   (offline: make all CONFIG=../shared/offline.yaml)
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

# An interrupted run leaves Snakemake's lock and incomplete-file markers behind; both are
# safe to clear before a new run, because every output is written atomically.
all: setup
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_CONFIG) --unlock >/dev/null 2>&1 || true
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_CONFIG) --rerun-incomplete

# --durations: the slowest tests are printed, so a test that became slow shows in CI's log.
test: setup
	$(BIN)/python -m pytest --durations=15

lint: setup
	$(BIN)/snakemake --lint

bench: setup
	$(BIN)/python bench/bootstrap.py

report: setup
	$(BIN)/snakemake --cores 1 $(SNAKEMAKE_CONFIG) results/report.html

clean:
	rm -rf results logs .snakemake

# Re-resolve the dependencies of pyproject.toml into requirements.lock (needs PyPI).
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -e '.[test,cluster]'
	.lock-venv/bin/python -m pip install --quiet --no-deps irrCAC==0.4.4
	{ sed -n '1,3p' requirements.lock; .lock-venv/bin/python -m pip freeze --exclude-editable | grep -v '^reagree'; } > requirements.lock.new
	mv requirements.lock.new requirements.lock
	rm -rf .lock-venv
