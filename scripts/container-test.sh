#!/usr/bin/env bash
# The container leg of make test: build the images (Containerfile, deploy/nginx.Containerfile)
# and start compose.yaml's stack (nginx with push in front of the app, PostgreSQL, Redis) with
# podman, then drive it over HTTP (tests/container).
# No registry is reachable on the test machines, so the base image is a Debian bookworm root file
# system made here with mmdebstrap (python3 for the app; nginx with nchan, postgresql and
# redis-server for the other services), kept for the week outside the checkout, passed in as BASE. Everything else
# (podman's storage, podman-compose's venv) lives in one temporary folder, removed afterwards.
# Needs root and apt (exit 77 otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "!! the container leg needs root and apt-get (podman, mmdebstrap)" >&2
  exit 77
fi
started=$(date +%s)
packages=(podman buildah runc catatonit fuse-overlayfs slirp4netns uidmap netavark aardvark-dns
  iptables mmdebstrap)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} != 0 ]; then
  echo "== installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# In memory where there is room (the build and the base are disk-heavy), else /tmp.
tmp=/tmp
[ "$(df --output=avail -k /dev/shm 2>/dev/null | tail -n 1)" -gt 4000000 ] 2>/dev/null && tmp=/dev/shm
work=$(mktemp -d "$tmp/cetele-containers.XXXXXX")
export CONTAINERS_CONF="$work/containers.conf" CONTAINERS_STORAGE_CONF="$work/storage.conf"
project=cetele-test-$$
compose() { "$work/venv/bin/podman-compose" -p "$project" -f compose.yaml -f tests/container/compose.test.yaml "$@"; }
cleanup() { # the tests take their stacks down; whatever a failure left is removed here
  podman rm -af -t 0 >/dev/null 2>&1 || true
  podman volume prune -f >/dev/null 2>&1 || true
  podman network prune -f >/dev/null 2>&1 || true
  podman rmi -af >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# These machines: no setrlimit above the hard limit, no systemd (cgroupfs, file events); the
# machine's CA bundle for pip inside the build (it trusts this network's HTTPS proxy), mounted
# in every RUN step, never copied into the image. Networks and storage: this run's own.
cat >"$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
volumes = ["/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
[network]
network_backend = "netavark"
network_config_dir = "$work/networks"
CONF
cat >"$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "overlay"
graphroot = "$work/storage"
runroot = "$work/run"
CONF

echo "== podman-compose (its own venv) and a Debian bookworm base image (mmdebstrap)"
python3 -m venv "$work/venv"
("$work/venv/bin/pip" install --quiet --disable-pip-version-check podman-compose==1.6.0 2>&1 \
  | grep -v "is ignored" || true) &
pip_install=$!
# The mirrors apt already uses here (deb822 or one-line sources; not the commented-out ones).
sources() { grep -rh -v '^[[:space:]]*#' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true; }
mirror=$(sources | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ')
security=$(sources | grep -oE 'https?://[^ ]+/debian-security/?( |$)' | head -n 1 | tr -d ' ')
export BASE=localhost/cetele-test-base:bookworm
# Essential packages and these only (no apt: nothing is installed in it later); gettext and
# nginx with nchan too, so the builds find msgfmt and the module and skip their apt-get. No manual pages or docs, no
# PostgreSQL cluster made at install (the stand-in makes its own), dpkg without fsync.
base_packages=python3,python3-venv,ca-certificates,gettext,postgresql,redis-server
base_packages+=,nginx,libnginx-mod-nchan
base_args=(--quiet --variant=essential --dpkgopt=force-unsafe-io
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-exclude=/usr/share/locale/*'
  --essential-hook='mkdir -p "$1/etc/postgresql-common/createcluster.d" && echo "create_main_cluster = false" >"$1/etc/postgresql-common/createcluster.d/none.conf"'
  --include="$base_packages" bookworm -
  "deb ${mirror:-http://deb.debian.org/debian} bookworm bookworm-updates main"
  "deb ${security:-http://deb.debian.org/debian-security} bookworm-security main")
# The base stands in for the registry's python image, which a machine pulls once and keeps: it
# is not what is under test (the app's image is built afresh every run). Made once a week (the
# week's security updates) for these arguments, and kept outside the checkout; making it was
# most of this leg's CPU and four of its minutes.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cetele-container-base
key=$(printf '%s\n' "${base_args[@]}" | sha256sum | cut -c 1-16)
base_tar="$cache/bookworm-$key-$(date +%G-W%V).tar"
if [ ! -s "$base_tar" ]; then
  mkdir -p "$cache"
  # an older week's, or other arguments'
  find "$cache" -name 'bookworm-*.tar' ! -name "${base_tar##*/}" -delete
  TMPDIR=$work mmdebstrap "${base_args[@]}" >"$base_tar.$$"
  mv "$base_tar.$$" "$base_tar"
fi
podman import --quiet --change 'CMD ["/bin/bash"]' "$base_tar" "$BASE" >/dev/null
wait "$pip_install"
echo "   ready after $(($(date +%s) - started)) s"

echo "== build the images (compose.yaml's builds, BASE=$BASE)"
export CETELE_IMAGE=localhost/cetele:test CETELE_NGINX_IMAGE=localhost/cetele-nginx:test
export NGINX_BASE=$BASE
# What a self-hoster writes into .env beside compose.yaml (docs/self-hosting.md).
DJANGO_SECRET_KEY="container-leg-$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
POSTGRES_PASSWORD="container-leg-$(head -c 12 /dev/urandom | base64 | tr -d '/+=')"
export DJANGO_SECRET_KEY POSTGRES_PASSWORD DJANGO_ALLOWED_HOSTS=cetele.example WORKERS=2
compose build app nginx >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
echo "   built after $(($(date +%s) - started)) s"

echo "== drive the stack over HTTP (tests/container)"
export CETELE_PROJECT=$project
export CETELE_COMPOSE="$work/venv/bin/podman-compose -p $project -f compose.yaml -f tests/container/compose.test.yaml"
export CETELE_COMPOSE_SQLITE="$work/venv/bin/podman-compose -p $project-sqlite -f compose.sqlite.yaml"
export CETELE_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
status=0
.venv/bin/python -m pytest tests/container -q -p no:cacheprovider || status=$?
if [ "$status" != 0 ]; then
  echo "!! the container leg failed; the app's and nginx's logs:" >&2
  compose logs app nginx 2>&1 | tail -n 80 >&2 || true
fi
echo "   container leg took $(($(date +%s) - started)) s"
exit "$status"
