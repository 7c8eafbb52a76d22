#!/usr/bin/env bash
# make serve: gunicorn, behind nginx holding the phones' live streams (nchan: cetele/live/push.py),
# both on this machine. nginx answers on BIND (127.0.0.1:8000), nchan's publisher on the next
# port, and WORKERS app servers (one gunicorn process each) on the ports after it, all on
# 127.0.0.1 only: nginx sends each link's requests to one of them, whose memory then holds what
# is drawn for that link (deploy/nginx.conf.in says why). Without Debian's nginx and its nchan
# module (libnginx-mod-nchan) gunicorn alone answers on BIND with WORKERS processes, and the
# live pages poll. Stops them all on Ctrl-C or when any one stops.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
BIND=${BIND:-127.0.0.1:${PORT:-8000}}
PORT=${BIND##*:}
WORKERS=${WORKERS:-$(nproc)}
NCHAN=${NCHAN_MODULE:-/usr/lib/nginx/modules/ngx_nchan_module.so}
gunicorn() { # gunicorn ADDRESS PROCESSES
  exec "$BIN/gunicorn" cetele.wsgi --bind "$1" --worker-class gthread \
    --workers "$2" --threads "${THREADS:-4}" \
    --access-logfile - --logger-class cetele.shell.logs.GunicornLogger --graceful-timeout 30
}
if ! [ -x /usr/sbin/nginx ] || ! [ -f "$NCHAN" ]; then
  echo "serve: no nginx with nchan here (apt install nginx libnginx-mod-nchan): no push, pages poll" >&2
  gunicorn "$BIND" "$WORKERS"
fi

PUBLISH=127.0.0.1:$((PORT + 1))
APPS=()
for n in $(seq 1 "$WORKERS"); do APPS+=("127.0.0.1:$((PORT + 1 + n))"); done
SERVERS=$(printf '        server %s;\\n' "${APPS[@]}")
RUN=$(mktemp -d "${TMPDIR:-/tmp}/cetele-serve.XXXXXX")
for dir in body proxy fastcgi uwsgi scgi; do mkdir -m 777 "$RUN/$dir"; done # workers may drop root
sed -e "s#@NCHAN_MODULE@#$NCHAN#; s#@RUN@#$RUN#g; s#@SERVERS@#${SERVERS%\\n}#; s#@BIND@#$BIND#" \
    -e "s#@PUBLISH@#$PUBLISH#; s#@PUBLISH_ALLOW@##" deploy/nginx.conf.in >"$RUN/nginx.conf"

export CETELE_PUSH_PUBLISH="http://$PUBLISH/pub/"
# nginx is the proxy in front of gunicorn: the phone's address is the one nginx saw.
export DJANGO_TRUSTED_PROXIES=${DJANGO_TRUSTED_PROXIES:-127.0.0.1,::1}
pids=()
for app in "${APPS[@]}"; do
  (gunicorn "$app" 1) &
  pids+=($!)
done
/usr/sbin/nginx -p "$RUN" -c "$RUN/nginx.conf" -e stderr &
pids+=($!)
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait; rm -rf "$RUN"' EXIT INT TERM
echo "serve: http://$BIND (nginx with push) → ${#APPS[@]} gunicorn process(es) on ${APPS[*]}" >&2
wait -n "${pids[@]}"
