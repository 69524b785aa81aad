# What CI runs: `make check` (lint, format, types) and `make test`.
PY ?= python
SRC = src tests benchmarks

.PHONY: check test lint format types bench

check: lint types

lint:
	$(PY) -m ruff check $(SRC)
	$(PY) -m ruff format --check $(SRC)

format:
	$(PY) -m ruff format $(SRC)
	$(PY) -m ruff check --fix $(SRC)

types:
	$(PY) -m mypy

test:
	$(PY) -m pytest -q

bench:
	$(PY) benchmarks/runner_overhead.py
	$(PY) benchmarks/retrieval.py
	$(PY) benchmarks/invite_generation.py
	$(PY) benchmarks/viewer.py
