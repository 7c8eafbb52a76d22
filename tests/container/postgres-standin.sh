#!/bin/sh
# What the official postgres image's entry point does, as far as compose.yaml relies on it (no
# registry is reachable on the test machines): a new data folder in /var/lib/postgresql/data is
# made for POSTGRES_USER with POSTGRES_PASSWORD (password logins over the network) and
# POSTGRES_DB; then the server runs in the foreground on port 5432 as user postgres.
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
data=/var/lib/postgresql/data
mkdir -p "$data"
chown postgres:postgres "$data"
chmod 700 "$data"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$data/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/password
  chown postgres /tmp/password
  as_postgres "$bin/initdb" -D "$data" -U "$POSTGRES_USER" --pwfile=/tmp/password \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-sync >/dev/null
  rm /tmp/password
  echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
  echo "CREATE DATABASE $POSTGRES_DB" | as_postgres "$bin/postgres" --single -D "$data" postgres >/dev/null
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups \
  "$bin/postgres" -D "$data" -c listen_addresses='*' -c unix_socket_directories=/tmp -c fsync=off
