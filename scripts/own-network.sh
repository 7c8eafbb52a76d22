#!/usr/bin/env bash
# own-network.sh COMMAND...: COMMAND in a network namespace of its own (make test's real-browser
# legs). Chromium aborts every request in flight with net::ERR_NETWORK_CHANGED when an address
# appears on or leaves one of the machine's interfaces, and the container leg's podman (or
# anything else on a shared machine) changes them beside it: a test then fails for nothing the
# app did. In here nothing comes or goes: the loopback, which the tests' servers listen on, and
# one bridge with a private address and no port, only so that Chromium counts the phone online
# (with the loopback alone, navigator.onLine is false and the app keeps its hands for later).
# Nothing outside 127.0.0.1 is reachable. Needs root, as the container leg does; where no
# namespace can be made, COMMAND runs as it is (without root there is no container leg either).
set -euo pipefail
network='ip link set lo up && ip link add cetele0 type bridge &&
  ip addr add 10.255.0.1/24 dev cetele0 && ip link set cetele0 up'
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 &&
  unshare --net -- sh -c "$network" 2>/dev/null; then
  exec unshare --net -- sh -c "$network"' && exec "$@"' own-network "$@"
fi
[ "$(id -u)" != 0 ] ||
  echo "== own-network.sh: no network namespace here; the browser tests use the machine's network" >&2
exec "$@"
