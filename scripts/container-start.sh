#!/bin/sh
# The container's entry point (Containerfile): migrate once, however many app containers start
# together (manage.py prepare_database waits for the database, then takes a lock), then become
# gunicorn with the settings of `make serve`. `exec`: gunicorn is PID 1 and receives the stop
# signal itself (SIGTERM: a graceful stop). No access log unless CETELE_ACCESS_LOG=1: URLs hold
# the links, which are keys, and a container's log is kept until someone deletes it.
set -eu
[ "${CETELE_ACCESS_LOG:-0}" = 1 ] && set -- --access-logfile - "$@"
python manage.py prepare_database --wait "${CETELE_DATABASE_WAIT:-60}" --verbosity "${CETELE_MIGRATE_VERBOSITY:-1}"
exec gunicorn cetele.wsgi --bind 0.0.0.0:8000 --worker-class gthread \
  --workers "${WORKERS:-$(nproc)}" --threads "${THREADS:-4}" --graceful-timeout 30 "$@"
