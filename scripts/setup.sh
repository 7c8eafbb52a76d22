#!/usr/bin/env bash
# Creates .venv and installs the requirements ("runtime" or "dev"), re-installing only when the
# requirement files change; then compiles the translation catalogues.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-runtime}
py=${PY:-python3.11}
command -v "$py" >/dev/null 2>&1 || py=python3

if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv with $($py --version)"
  "$py" -m venv .venv
fi
req=requirements.txt
[ "$kind" = dev ] && req=requirements-dev.txt
stamp=".venv/.installed-$kind-$(cat requirements*.txt | sha1sum | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  echo "== installing $req"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req" 2>&1 \
    | grep -v "is ignored" || true
  .venv/bin/python -c "import django" # fail loudly if the install did not work
  touch "$stamp"
fi

# Turkish is the source language of the UI; the English catalogue must be compiled.
if ! command -v msgfmt >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing gettext (msgfmt)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext) >/dev/null
  fi
fi
if command -v msgfmt >/dev/null 2>&1; then
  DJANGO_SECRET_KEY=${DJANGO_SECRET_KEY:-setup-only} .venv/bin/python manage.py compilemessages \
    --ignore=.venv --verbosity 0
else
  echo "!! gettext is missing and cannot be installed (not root): the English UI will show Turkish."
fi
