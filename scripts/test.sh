#!/usr/bin/env bash
# The whole test run (make test): lint, checks, then the test legs side by side: the suite on
# SQLite with the real-browser tests, the database's tests again on a throw-away PostgreSQL, and
# the container image with its compose stack. The suite's fuzz sends its 1,000 seeded requests
# on each database; `make fuzz` sends 10,000 of the same seed and kinds, which would add 195 s of
# CPU here (an eighth of the run's) for no kind of request the 1,000 do not send.
# On CI (CI=true) no leg may skip.
#
# The legs run at once so that one leg's waits (a browser drawing, podman and apt, gunicorn
# starting, a hanging save given up) are another's CPU: side by side they keep the two cores
# busy nearly all the run, which the run's last line says. Each leg writes its own log, shown
# whole when it ends, its time (and its CPU, where it can be counted) and result after it; a
# failed leg fails the run once every leg has ended.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev
scripts/system-deps.sh
export DJANGO_SETTINGS_MODULE=tests.settings
export DJANGO_ALLOW_ASYNC_UNSAFE=true # Playwright's sync API runs an event loop in the test thread
ci=${CI:-false}
run_started=$(date +%s)
busy_cpu() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; } # ticks, steal not ours
busy_at_start=$(busy_cpu)

echo "== lint (ruff)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== Django checks"
.venv/bin/python manage.py makemigrations --check --dry-run
env -u DJANGO_ALLOW_ASYNC_UNSAFE DJANGO_SETTINGS_MODULE=cetele.settings DJANGO_DEBUG=0 DJANGO_HTTPS=1 \
  DJANGO_SECRET_KEY="check-deploy-$(head -c 48 /dev/urandom | base64 | tr -d '/+=')" \
  DJANGO_ALLOWED_HOSTS=cetele.example .venv/bin/python manage.py check --deploy --fail-level WARNING

logs=$(mktemp -d /tmp/cetele-test-logs.XXXXXX)
declare -A leg_of=() started_at=()
pids=()
# The run is bound by CPU (docs/performance.md, "The test run"): each leg's CPU is counted in a
# control group of its own where the kernel offers one to write (cgroup v1's cpuacct, as root),
# every process the leg starts included (not the containers podman puts in groups of their own),
# and printed beside its time; the run's end says how busy the machine's cores were.
# Tried first with a shell that only moves itself there: where a process cannot be moved, the
# legs run as before, uncounted.
cpu_groups=/sys/fs/cgroup/cpuacct/cetele-test-$$
if ! { [ -w "${cpu_groups%/*}" ] && mkdir "$cpu_groups" 2>/dev/null; }; then
  cpu_groups=""
elif ! sh -c 'echo $$ >"$0/tasks"' "$cpu_groups" 2>/dev/null; then
  rmdir "$cpu_groups"
  cpu_groups=""
fi
stop_legs() { for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done; }
remove_groups() { [ -z "$cpu_groups" ] || rmdir "$cpu_groups"/*/ "$cpu_groups" 2>/dev/null || true; }
trap 'stop_legs; remove_groups; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM

# leg NAME DESCRIPTION COMMAND...: COMMAND in the background, in a session of its own (so that
# an interrupt ends it with its children), its output in NAME's log. Each leg's pytest gets its
# own --basetemp: pytest's numbered temporary folders are shared by every run as this user.
leg() {
  local name=$1 description=$2
  shift 2
  echo "== $name: $description (started)"
  echo "== $name: $description" >"$logs/$name.log"
  if [ -n "$cpu_groups" ]; then
    mkdir "$cpu_groups/$name"
    set -- sh -c 'echo $$ >"$0/tasks"; exec "$@"' "$cpu_groups/$name" "$@"
  fi
  PYTEST_ADDOPTS="--basetemp=$logs/$name.tmp --durations=20" setsid "$@" >>"$logs/$name.log" 2>&1 &
  leg_of[$!]=$name
  started_at[$name]=$(date +%s)
  pids+=("$!")
}
pytest=(.venv/bin/python -m pytest)

# Longest waits first. What asks for the database under test is marked `database`
# (tests/conftest.py); that runs again on PostgreSQL. The engine, pure functions and servers
# started on SQLite files of their own would only repeat leg 1 there.
leg container "the container image and compose.yaml's stack under podman (tests/container)" \
  scripts/container-test.sh
# Of the browser tests, those where phones' writes meet (marked `races`) run on PostgreSQL too:
# the rest are the same in the browser on either database (tests/browser/conftest.py).
# The browser legs each have a network of their own (scripts/own-network.sh): the container
# leg's bridges coming and going would abort the browser's requests.
leg postgres-browser "the real-browser tests where phones' writes meet, again on PostgreSQL" \
  scripts/own-network.sh scripts/with-postgres.sh "${pytest[@]}" tests/browser -m races
# On SQLite they run in two processes (pytest-xdist), each with its Chromium and live server, a
# file at a time (a file's servers are started once): one test mostly waits on its browser and
# its server in turn, so two at once take about half the time for about the same CPU (alone:
# 278 s and 326 s of CPU, against some 500 s and 336 s in one process).
leg sqlite-browser "the real-browser tests on SQLite" \
  scripts/own-network.sh "${pytest[@]}" tests/browser -n 2 --dist loadfile
# The tests that start real servers (gunicorn workers, Redis) and drive them are most of the
# suite's time on SQLite (faults, the miss counts and the shared cache alone: 400 s of 790 in
# the last run): a leg of their own, so that the suite's leg is not the last to end.
servers=(tests/web/shell/test_faults.py tests/web/sharing/test_guess_limits.py
  tests/web/sharing/test_guess_limit_across_servers.py tests/web/shell/test_prepare_database.py
  tests/web/shell/test_health.py tests/web/shell/test_make_run.py
  tests/web/bench/test_loadtest_stacks.py tests/web/live/test_push.py)
# On PostgreSQL too they are a leg of their own: that leg mostly waits on its servers, and the
# rest of the database's tests were the last leg to end (604 s of 606, 245 s of CPU).
leg postgres-servers "the tests that start real servers, again on PostgreSQL" \
  scripts/with-postgres.sh "${pytest[@]}" "${servers[@]}" -m "database and not browser"
leg postgres "the rest of the tests of the database again on PostgreSQL (web, scoring)" \
  scripts/with-postgres.sh "${pytest[@]}" tests -m "database and not browser" \
  "${servers[@]/#/--ignore=}"
leg sqlite-servers "the tests that start real servers, on SQLite" "${pytest[@]}" "${servers[@]}"
leg sqlite "the rest of the suite on SQLite (scoring, web)" \
  "${pytest[@]}" tests --ignore=tests/browser "${servers[@]/#/--ignore=}"

failed=()
skipped=()
for _ in "${pids[@]}"; do
  status=0
  wait -n -p pid || status=$?
  name=${leg_of[$pid]}
  took=$(($(date +%s) - ${started_at[$name]}))
  cpu=""
  [ -z "$cpu_groups" ] || cpu=", $(($(cat "$cpu_groups/$name/cpuacct.usage") / 1000000000)) s of CPU"
  echo
  cat "$logs/$name.log"
  if [ "$status" = 77 ]; then # only scripts/with-postgres.sh and container-test.sh exit so
    if [ "$ci" = true ]; then
      echo "!! CI: the $name leg may not skip"
      failed+=("$name")
    else
      echo "!!!!!!!! SKIPPED the $name leg: run make test as root to include it !!!!!!!!"
      skipped+=("$name")
    fi
  elif [ "$status" != 0 ]; then
    echo "!! the $name leg FAILED (exit $status) after $took s$cpu; its log is above"
    failed+=("$name")
  else
    echo "== $name: passed in $took s$cpu"
  fi
done
pids=()

echo
took=$(($(date +%s) - run_started))
busy=$((($(busy_cpu) - busy_at_start) / $(getconf CLK_TCK)))
echo "== make test took $took s; the machine's cores were busy $busy s of the $((took * $(nproc))) they had"
[ ${#skipped[@]} = 0 ] || echo "!! skipped: ${skipped[*]}" >&2
if [ ${#failed[@]} != 0 ]; then
  echo "!! FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "== all test legs passed"
