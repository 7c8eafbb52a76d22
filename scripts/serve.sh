#!/usr/bin/env bash
# make serve: gunicorn, behind nginx holding the phones' live streams (nchan: cetele/live/push.py),
# both on this machine. nginx answers on BIND (127.0.0.1:8000); gunicorn listens on the next
# port, nchan's publisher on the one after, both on 127.0.0.1 only. Without Debian's nginx and its
# nchan module (libnginx-mod-nchan) gunicorn alone answers on BIND, and the live pages poll.
# Stops both on Ctrl-C or when either stops.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
BIND=${BIND:-127.0.0.1:${PORT:-8000}}
PORT=${BIND##*:}
NCHAN=${NCHAN_MODULE:-/usr/lib/nginx/modules/ngx_nchan_module.so}
gunicorn() {
  exec "$BIN/gunicorn" cetele.wsgi --bind "$1" --worker-class gthread \
    --workers "${WORKERS:-$(nproc)}" --threads "${THREADS:-4}" \
    --access-logfile - --logger-class cetele.shell.logs.GunicornLogger --graceful-timeout 30
}
if ! [ -x /usr/sbin/nginx ] || ! [ -f "$NCHAN" ]; then
  echo "serve: no nginx with nchan here (apt install nginx libnginx-mod-nchan): no push, pages poll" >&2
  gunicorn "$BIND"
fi

APP=127.0.0.1:$((PORT + 1))
PUBLISH=127.0.0.1:$((PORT + 2))
RUN=$(mktemp -d "${TMPDIR:-/tmp}/cetele-serve.XXXXXX")
for dir in body proxy fastcgi uwsgi scgi; do mkdir -m 777 "$RUN/$dir"; done # workers may drop root
sed -e "s#@NCHAN_MODULE@#$NCHAN#; s#@RUN@#$RUN#g; s#@SERVERS@#        server $APP;#; s#@BIND@#$BIND#" \
    -e "s#@PUBLISH@#$PUBLISH#; s#@PUBLISH_ALLOW@##" deploy/nginx.conf.in >"$RUN/nginx.conf"

export CETELE_PUSH_PUBLISH="http://$PUBLISH/pub/"
# nginx is the proxy in front of gunicorn: the phone's address is the one nginx saw.
export DJANGO_TRUSTED_PROXIES=${DJANGO_TRUSTED_PROXIES:-127.0.0.1,::1}
(gunicorn "$APP") &
app=$!
/usr/sbin/nginx -p "$RUN" -c "$RUN/nginx.conf" -e stderr &
web=$!
trap 'kill -TERM $app $web 2>/dev/null; wait; rm -rf "$RUN"' EXIT INT TERM
echo "serve: http://$BIND (nginx with push) → gunicorn on $APP" >&2
wait -n $app $web
