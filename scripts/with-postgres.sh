#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throw-away PostgreSQL cluster that this script
# creates in a temporary folder, listening on a unix socket there and on 127.0.0.1, and removes
# afterwards. Needs Debian's postgresql package and root (the server runs as user postgres).
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ "$(id -u)" != 0 ] || ! id postgres >/dev/null 2>&1; then
  echo "!! PostgreSQL leg cannot run here (needs root and Debian's postgresql package)." >&2
  exit 77
fi
dir=$(mktemp -d /tmp/cetele-pg.XXXXXX)
chown postgres "$dir"
chmod 700 "$dir"
as_pg() { su postgres -s /bin/sh -c "$*"; }
stop() { as_pg "$bindir/pg_ctl -D $dir/data -m fast stop" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
as_pg "$bindir/initdb -D $dir/data -U postgres -A trust --no-sync -E UTF8" >/dev/null
touch "$dir/log"; chown postgres "$dir/log"
# A random port may be taken by another server on this machine: try a few.
started=false
for attempt in 1 2 3 4 5; do
  port=${PGPORT_TEST:-$(( 20000 + RANDOM % 20000 ))}
  if as_pg "$bindir/pg_ctl -D $dir/data -l $dir/log -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200\" start" >/dev/null; then
    started=true
    break
  fi
done
if [ "$started" != true ]; then
  echo "!! PostgreSQL did not start; its log:" >&2
  cat "$dir/log" >&2
  exit 1
fi
as_pg "$bindir/createdb -h $dir -p $port cetele"
export DATABASE_URL="postgres://postgres@127.0.0.1:$port/cetele"
echo "== PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (socket in $dir)"
"$@"
