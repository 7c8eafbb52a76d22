#!/bin/bash
# The entry point of the compose stacks' nginx (deploy/nginx.Containerfile): fills in
# deploy/nginx.conf.in as scripts/serve.sh does for make serve, then runs nginx in the
# foreground, passing compose's stop signal on to it.
#   CETELE_APP      the app servers behind, host:port, comma-separated (default app:8000)
#   nchan's publisher answers on port 8001 to this container's own networks only (the compose
#   network, where the app is): the phones reach port 8000 alone, through the published port.
set -euo pipefail
run=/var/lib/nginx
template=/etc/cetele/nginx.conf.in
for dir in body proxy fastcgi uwsgi scgi; do mkdir -p "$run/$dir"; done

servers=""
IFS=, read -ra apps <<<"${CETELE_APP:-app:8000}"
for app in "${apps[@]}"; do servers+="        server $app;"$'\n'; done

# The networks this container is on, from its routing table (no `ip` in a slim image): each
# route's destination and mask, in little-endian hex. The default route (0.0.0.0) is not one.
dotted() { printf '%d.%d.%d.%d' "0x${1:6:2}" "0x${1:4:2}" "0x${1:2:2}" "0x${1:0:2}"; }
prefix() {
  local mask=$((16#$1)) bits=0
  while [ "$mask" -gt 0 ]; do bits=$((bits + (mask & 1))); mask=$((mask >> 1)); done
  echo "$bits"
}
allow=""
while read -r _ destination _ _ _ _ _ mask _; do
  [[ $destination =~ ^[0-9A-F]{8}$ ]] && [ "$destination" != 00000000 ] || continue
  allow+="allow $(dotted "$destination")/$(prefix "$mask"); "
done </proc/net/route

servers=${servers%$'\n'}
config=$(<"$template")
config=${config//@NCHAN_MODULE@//usr/lib/nginx/modules/ngx_nchan_module.so}
config=${config//@RUN@/$run}
config=${config//@SERVERS@/$servers}
config=${config//@BIND@/8000}
config=${config//@PUBLISH@/8001}
config=${config//@PUBLISH_ALLOW@/$allow}
printf '%s\n' "$config" >"$run/nginx.conf"

# nginx looks the app servers' names up once, when it reads its configuration, and a new app
# container (restarted, upgraded) may have another address: nginx would go on asking the old
# one. So this script stays, looks them up every few seconds and, when they changed, has nginx
# read its configuration again (a reload: the streams it holds stay open).
addresses() {
  getent ahostsv4 "${apps[@]%:*}" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ' ' || true
}
for _ in $(seq 60); do # nginx refuses to start with a name it cannot find
  [ -n "$(addresses)" ] && break
  sleep 1
done
known=$(addresses)
/usr/sbin/nginx -p "$run" -c "$run/nginx.conf" -e stderr &
nginx=$!
trap 'kill -QUIT "$nginx" 2>/dev/null || true' QUIT # graceful (STOPSIGNAL)
trap 'kill -TERM "$nginx" 2>/dev/null || true' TERM INT
while kill -0 "$nginx" 2>/dev/null; do
  sleep 2 &
  wait $! || true
  now=$(addresses)
  if [ -n "$now" ] && [ "$now" != "$known" ]; then # a stopped app has no address: keep the last
    known=$now
    kill -HUP "$nginx" 2>/dev/null || true
  fi
done
wait "$nginx"
