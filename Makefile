# Çetele — every set-up step lives behind these targets. See README.md.
PY        ?= python3.11
VENV      := .venv
BIN       := $(VENV)/bin
PORT      ?= 8000
WORKERS   ?= $(shell nproc)
THREADS   ?= 4

.PHONY: run test lint format serve bench loadtest lighthouse messages fuzz clean

## make run: create .venv, install, migrate the embedded SQLite database, serve on 127.0.0.1:$(PORT)
run:
	@scripts/setup.sh runtime
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

## make test: install dev requirements and what the tests need, then run every test leg
test:
	@scripts/test.sh

## make fuzz: FUZZ_REQUESTS (10,000) seeded garbage requests over every POST endpoint: no 500, no half-save
fuzz:
	@scripts/setup.sh dev
	FUZZ_REQUESTS=$${FUZZ_REQUESTS:-10000} DJANGO_SETTINGS_MODULE=tests.settings \
		$(BIN)/python -m pytest tests/web/shell/test_fuzz.py -q -s

## make lint: ruff (lint and format check)
lint:
	@scripts/setup.sh dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format:
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## make serve: production server on 127.0.0.1:$(PORT) (BIND=host:port to change): nginx holding the
## live streams (push), gunicorn behind it; needs DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS
serve:
	@scripts/setup.sh runtime
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	PORT=$(PORT) WORKERS=$(WORKERS) THREADS=$(THREADS) scripts/serve.sh

## make bench: server times (match page, preview, save) beside a minimal view, and the engine's
bench:
	@scripts/setup.sh dev
	$(BIN)/python -m bench.bench_server

## make loadtest: live tables on 127.0.0.1 (nginx with nchan in front of gunicorn), each phone
## doing what a phone does (previews per tap, saves, corrections, rows, gösterge, page loads,
## tables arriving), once with push and once with polling, their steps alternating, then nginx
## restarted under load: one server on SQLite, then the scaled-out stack (one then two app
## servers, PostgreSQL, Redis); each ends with push and polling side by side and whether the
## goals were met (~30 min)
loadtest:
	@scripts/setup.sh dev
	@scripts/system-deps.sh
	$(BIN)/python -m bench.loadtest --database sqlite $(LOADTEST_ARGS)
	scripts/with-postgres.sh $(BIN)/python -m bench.loadtest --database postgres \
		--servers 1,2 --balancer --cache redis $(LOADTEST_ARGS)

## make lighthouse: Lighthouse (mobile) performance and accessibility of the home and a match page
lighthouse:
	@scripts/setup.sh dev
	@scripts/system-deps.sh lighthouse
	$(BIN)/python -m bench.lighthouse

## make messages: refresh the English catalogue from the Turkish source strings, then compile it
messages:
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l en --no-location --no-obsolete \
		--ignore=.venv --ignore=bench --ignore=staticfiles
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles
