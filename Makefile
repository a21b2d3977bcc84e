# Two commands on a fresh clone:
#   make all    set up .venv and rebuild every number   (offline: make all CONFIG=../shared/offline.yaml)
#   make test   set up .venv and run the tests
PYTHON ?= python3
VENV ?= .venv
CORES ?= 4
CONFIG ?=
BIN := $(VENV)/bin
SNAKEMAKE_CONFIG := $(if $(CONFIG),--configfile $(CONFIG),)

.PHONY: setup all test lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

all: setup
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_CONFIG)

test: setup
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/snakemake --lint

bench: setup
	$(BIN)/python bench/bootstrap.py

clean:
	rm -rf results logs .snakemake
