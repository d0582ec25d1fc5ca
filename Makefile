# astrarium: `make play` to play, `make test` to run the tests. Both set everything up first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: play test test-slow test-compiled bench lint clean install pictures serve bench-server docs learn

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
	  { echo "astrarium needs Python 3.11 or newer; set PYTHON=python3.11 (or newer)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed $(VENV)/.installed-docs

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@touch $@ $(VENV)/.installed $(VENV)/.installed-test $(VENV)/.installed-docs

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	@touch $@ $(VENV)/.installed

$(VENV)/.installed-web: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed

play: $(VENV)/.installed
	$(BIN)/astrarium

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -m "not slow"

# The statistical checks of the balance and strength figures and the rest of what make test samples (marked slow), and
# every property test at its full count (hypothesis's full profile; make test runs the quick one). CI runs them too.
test-slow: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=full $(BIN)/python -m pytest -m "slow or hypothesis"

bench: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/run.py --both

# The learning example (docs/learning.md, "A learning example"): the Celestials policy the `learned` player plays,
# imitation of a short search first, then clipped policy-gradient steps mostly against the easy level; CPU only, two processes.
# The search's games are kept in $(LEARN)/celestials-demonstrations.npz: a second run reads them instead of playing them again.
LEARN := build/learn
learn: $(VENV)/.installed-test
	mkdir -p $(LEARN)
	$(BIN)/python -m astrarium.rl.learn --game celestials --imitate mcts:iterations=50,depth=10 --imitate-games 200 --imitate-epochs 6 \
	  --hidden 128 --learning-rate 1e-3 --jobs 2 --demonstrations $(LEARN)/celestials-demonstrations.npz \
	  --updates 0 --out $(LEARN)/celestials-imitation.npz
	$(BIN)/python -m astrarium.rl.learn --game celestials --start $(LEARN)/celestials-imitation.npz \
	  --opponents greedy,greedy,greedy,random --learning-rate 3e-4 --entropy 0.003 --epochs 4 --temperature 0.3 --updates 70 --jobs 2 \
	  --out src/astrarium/agents/policies/celestials.npz --curve docs/images/learning-celestials.svg --curve-csv $(LEARN)/celestials-curve.csv

# The compiled build (mypyc, see hatch_build.py) in its own environment, tested on the rules, the
# conformance suite, the computer players and every recorded equivalence fingerprint. Needs a C compiler.
COMPILED := build/compiled
test-compiled: | $(BIN)/python
	rm -rf $(COMPILED)
	$(PYTHON) -m venv $(COMPILED)
	ASTRARIUM_COMPILE=require $(COMPILED)/bin/python -m pip install --quiet '.[test]'
	HYPOTHESIS_PROFILE=full ASTRARIUM_EXPECT_BUILD=compiled $(COMPILED)/bin/python -m pytest -p no:cacheprovider -m "not slow" \
	  tests/games tests/test_conformance.py tests/test_agents.py tests/test_speed_equivalence.py tests/test_build.py
	HYPOTHESIS_PROFILE=full ASTRARIUM_EXPECT_BUILD=compiled $(COMPILED)/bin/python -m pytest -p no:cacheprovider -m slow \
	  tests/test_speed_equivalence.py tests/test_conformance.py tests/games/connected_worlds/test_connected_worlds_properties.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks scripts hatch_build.py
	$(BIN)/ruff format --check src tests benchmarks scripts hatch_build.py
	$(BIN)/mypy src/astrarium

# The documentation site with the API reference from the docstrings (mkdocs.yml), offline, into build/docs.
# Strict: a broken link, a missing page or a docstring naming an object that does not exist fails it.
docs: $(VENV)/.installed-docs
	$(BIN)/mkdocs build --strict --site-dir build/docs

serve: $(VENV)/.installed-web
	$(BIN)/astrarium serve

bench-server: $(VENV)/.installed-test
	$(BIN)/python -m astrarium.web.bench --games 500 --seconds 60 --processes $(or $(BENCH_PROCESSES),2)
	$(BIN)/python -m astrarium.web.bench --games 500 --seconds 60 --processes $(or $(BENCH_PROCESSES),2) --postgres

pictures: $(VENV)/.installed
	$(BIN)/python scripts/make_pictures.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist
