# Truco site. `make help` lists the targets.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist): each has its own test database, channel prefix and cache database
# (truco_site/settings.py); 0 runs the suite in one process.
XDIST ?= 2

.DEFAULT_GOAL := help
.PHONY: help venv install setup run lint format test test-fast test-browser check-deploy messages screenshots bench arena loadtest loadtest-rooms bench-render bench-move bench-replay bench-layer bench-analysis rebuild-stats seed-leaderboards bench-leaderboards clean

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

$(VENV)/.installed: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	@touch $@

venv: $(VENV)/.installed ## create .venv and install requirements.txt

setup: venv ## compile translations, migrate, load initial data (data migrations)
	$(PY) manage.py compile_catalogues
	$(PY) manage.py migrate --noinput

run: setup ## start the site on http://127.0.0.1:8000 (HOST/PORT override; daphne, SQLite + in-memory layer unless DATABASE_URL/REDIS_URL)
	$(PY) manage.py collectstatic --noinput -v 0
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) truco_site.asgi:application

lint: venv ## ruff lint + format check, the architecture's import contracts (lint-imports) and types (mypy; docs/architecture.md)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

format: venv ## apply ruff's formatting and safe fixes
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

test: venv lint ## lint, then the whole suite in XDIST=2 processes (PostgreSQL + Redis when DATABASE_URL/REDIS_URL are set)
	$(PY) manage.py compile_catalogues
	$(PY) -m pytest -m "not browser" -n $(XDIST) $(PYTEST_ARGS)
	$(PY) -m pytest -m browser -n $(XDIST) $(PYTEST_ARGS)

test-fast: venv ## everything but the real-browser tests
	$(PY) manage.py compile_catalogues
	$(PY) -m pytest -m "not browser" -n $(XDIST) $(PYTEST_ARGS)

test-browser: venv ## only the real-Chromium tests
	$(PY) manage.py compile_catalogues
	$(PY) -m pytest -m browser -n $(XDIST) $(PYTEST_ARGS)

check-deploy: venv ## `check --deploy` with a production-like environment
	DEBUG=0 SECRET_KEY=$$(openssl rand -hex 32) ALLOWED_HOSTS=truco.example $(PY) manage.py check --deploy --fail-level WARNING

screenshots: venv ## docs/screenshots/ from scratch: a full-resolution PNG of every page and table state at 390x844 and 1280x800 (pt-BR)
	$(PY) manage.py compile_catalogues
	rm -f docs/screenshots/*.png
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -m browser -q tests/browser/test_site_browser.py \
		tests/browser/test_table_layout_browser.py tests/browser/test_cards_browser.py \
		tests/browser/test_every_state_browser.py tests/browser/test_play_page_browser.py \
		-k "speaks_one_language or bell_shows or control_of_the_table or ai_partners_sign or cards_read_at_a_glance or every_state_shows_its_hooks or screenshots_of_the_play_page" $(PYTEST_ARGS)

messages: venv ## refresh the pt-BR .po catalogues after changing user-facing text (needs gettext)
	for app in accounts games rooms shop stats; do (cd $$app && ../$(PY) ../manage.py makemessages -l pt_BR); done
	$(PY) manage.py makemessages -l pt_BR --ignore='accounts/*' --ignore='games/*' --ignore='rooms/*' --ignore='shop/*' --ignore='stats/*' --ignore='.venv/*' --ignore='tests/*' --ignore='static/*'

PLAYERS ?= 100
SECONDS ?= 30
URL     ?= http://$(HOST):$(PORT)
LOADTEST_ARGS ?=
loadtest: venv ## PLAYERS=100 SECONDS=30 [URL=..,..] players vs the AI over real sockets, beside the floor; needs `BENCH_ROUTES=1 make run` in another terminal (same DATABASE_URL)
	$(PY) manage.py loadtest_table --players $(PLAYERS) --seconds $(SECONDS) --url $(URL) $(LOADTEST_ARGS)

BOT     ?= hard
MATCHES ?= 4000
SEED    ?= 1
ARENA_ARGS ?=
arena: venv ## BOT=hard (or hard+signs: told its partner's sign) MATCHES=4000 [SEED=1] [ARENA_ARGS="--opponents rock,hard --tables 2p,4m --results FILE"] BOT against the style panel at the four tables, 95% intervals (both cores; FILE keeps finished matches, a rerun goes on)
	$(PY) -m games.engine.arena --panel $(BOT) --matches $(MATCHES) --seed $(SEED) $(ARENA_ARGS)

TABLES ?= 50
loadtest-rooms: venv ## TABLES=50 SECONDS=30 [URL=..,..] [LOADTEST_ARGS=--analyses] rooms of four people playing each other (action → all four seats updated), beside the floor (and the servers analysing a match in a loop); needs `BENCH_ROUTES=1 make run`
	$(PY) manage.py loadtest_rooms --tables $(TABLES) --seconds $(SECONDS) --url $(URL) $(LOADTEST_ARGS)

bench-layer: venv ## the in-memory channel layer's cost per message at 40/200/400 sockets, Channels' stock sweep vs the throttled one
	$(PY) manage.py bench_channel_layer

SEATS ?= 4
bench-replay: venv ## the replay page of a long 4-seat match: steps through the engine, from the events (before issue 29), the whole page
	$(PY) manage.py bench_replay

bench-render: venv ## [SEATS=4] what a table socket spends per update: database + every fragment (before) vs the published move's changed fragments; every seat of a move alone vs shared
	$(PY) manage.py bench_table_render --seats $(SEATS)

bench-move: venv ## [SEATS=4] the server's CPU per move of a room of people, in parts: the move's transaction, the publish, every seat's push
	$(PY) manage.py bench_move --seats $(SEATS)

ANALYSED ?= 8
bench-analysis: venv ## [ANALYSED=8] post-match analysis time per match (p50/p95/max, wall and CPU) at 2 and 4 seats, both variants
	$(PY) -m games.engine.analysis_bench --matches $(ANALYSED)

rebuild-stats: venv ## recompute every player's statistics from the stored matches, the leaderboards' totals, and award achievements already reached
	$(PY) manage.py rebuild_stats --rank-points --award

PLAYERS_DATA ?= 100000
AWARDS ?= 5000000
seed-leaderboards: venv ## PostgreSQL only, on a database of its own: PLAYERS_DATA=100000 AWARDS=5000000 players and rank-point awards
	$(PY) manage.py seed_leaderboards --players $(PLAYERS_DATA) --awards $(AWARDS)

RUNS ?= 100
bench-leaderboards: venv ## p50/p95 of every leaderboard page (RUNS=100), after seed-leaderboards; see docs/performance.md
	$(PY) manage.py bench_leaderboards --runs $(RUNS)

clean: ## remove the venv, the SQLite databases, collected static files and mypy's cache
	rm -rf $(VENV) db.sqlite3* test_db.sqlite3* staticfiles .mypy_cache
