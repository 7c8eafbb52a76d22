#!/usr/bin/env bash
# Installs the Debian packages the tests need (chromium's headless shell, gettext, postgresql,
# redis-server; nginx with nchan for push, make serve and make loadtest) where missing;
# `system-deps.sh lighthouse` also the full chromium, which Lighthouse drives. None of them is
# started here.
# Without root it only reports what is missing; the test legs then skip loudly (never on CI).
set -euo pipefail
missing=()
# The browser tests' Chromium: Debian's build of Chromium's headless shell, what Playwright
# itself runs headless (half the CPU of the full browser in headless mode; docs/decisions.md).
[ -x /usr/lib/chromium/chromium-headless-shell ] ||
  missing+=(chromium-headless-shell fonts-liberation) # a font, or pages render no text
[ "${1:-}" != lighthouse ] || [ -x /usr/bin/chromium ] || missing+=(chromium)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server) # the shared cache's tests
[ -x /usr/sbin/nginx ] || missing+=(nginx) # make serve's and the loadtest's front (push, balancer)
[ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] || missing+=(libnginx-mod-nchan) # live push
command -v ip >/dev/null 2>&1 || missing+=(iproute2) # the browser legs' own network (own-network.sh)
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "!! missing Debian packages (need root to install): ${missing[*]}" >&2
fi
