"""`make loadtest`: many live tables at once on 127.0.0.1, behind nginx as `make serve` runs it
(deploy/nginx.conf.in: nchan holds the phones' streams), each phone doing what a phone at a
café table does, once with push and once with polling side by side; then nginx restarted under
load; then a check that every acknowledged hand is in the database exactly once.

The app is a black box here: every request is built as the browser builds it from the page it
was given (static/cetele/app.js, htmx, templates/cetele/matches/match.html and
hand_form/_hand_form.html), with that phone's own cookies, the CSRF token the page carries
and the hand form's fields as drawn.
A table is one match and `--viewers` + 1 phones:

- the scorer's phone polls its sheet, and for each hand (one every `--save-every` s) sends the
  hand form's preview as the scorer taps (one a tap, a sum typed being one: about 4 a hand, or
  `--previews`, spread over the `--entry-seconds` before the save: htmx posts the whole form to
  the form's URL with HX-Target: hand-preview), then saves it ("Eli kaydet": the same form
  with action=save, HX-Target: hand-form; the answer names the hand, HX-Trigger
  cetele:hand-saved, and carries the next hand's form, whose one-time token the next save
  sends) and asks for the sheet at once;
- about one hand in ten (`--corrections`) the scorer also corrects a past hand: opens its page
  (a link on the sheet), taps a few previews, saves it with the hand's version as the page
  carries it (answered 204 with HX-Redirect), and the browser loads the sheet it is sent to;
- viewers poll the view link; at a share of the tables (`--joined`) the players join with their
  own phones instead ("Masaya katıl": the join link's page, the name picked, their own page), and
  during each hand's entry each sends its row twice (its opening, then its sum);
- after each save, the deal: the next hand's gösterge is tapped (its colour, then its number,
  each sent as tapped), by a joined phone where the players joined, else on the scorer's form;
- the scorer's page and a joined phone's ask for the open hand's rows (the rows' section: its
  hx-get and hx-trigger "every N s", as the answer gives them; the scorer's page asks at once
  when drawn) and ask for the sheet only when the rows' answer says it changed (HX-Trigger
  cetele:poll-now) or after their own save; the view link's phones poll the sheet;
- the scorer's save names the rows its page has shown (data-rows-seen, as seats.js copies it);
  one refused because a row came since (its form brought up to date) is tapped again once;
- the sheet is polled on the schedule the page gives (data-poll-schedule, from how long the match
  has been quiet; or every `--poll-every` s when given), and every phone now and then reloads
  its page (`--reloads-per-minute`, a Poisson rate per phone: only the HTML page counts, static
  files are cached by the browser);
- tables arrive during the run: a phone opens /yeni/, starts a match through the form, lands on
  its sheet, opens the share page for the view link, and the viewers open that link over the next
  minute. The arrival rate is the steady state of a room of that many tables (a match of
  `--match-hands` hands ends as another begins), or `--arrivals-per-minute`;
- with `--tournament 64`, a café tournament (issue 32) plays beside them: 64 eşli teams drawn
  through the organiser's own code into groups of four, best of three, on `--tournament-tables`
  (16) tables; the first game at each table is one of the live tables (its scorer and viewers as
  any table's), and `--spectators` (40) phones follow the tournament's view page: its live part
  asks on the same schedule as a sheet and is drawn again at every save of any of its tables.

Push and polling (issue 53, `--live push,poll`, the default). For each number of app servers
two stacks are up for the whole run, the same nginx in front of the same gunicorn servers
(stack.py), with their own tables: one whose app servers publish each change to nchan (their
pages carry data-stream), one whose do not (their pages poll). Their steps alternate, push then
polling at each table count, so that both meet the same load from the rest of the shared
machine. On push each phone does what app.js does under push (push.py): it holds its page's
stream (a raw socket read line by line), asks once through the poll it already has (the sheet's
and, with the open hand's rows, theirs) when the stream opens again after a failure, after
U(0, 5) s, only if it may be behind (an ask it was told to make cut with the stream, or down over
45 s: else what it missed comes as a message), or opens on a page drawn more than 30 s before,
after U(0, 1) s (a page drawn moments
ago learns of a change since from the stream's first message: nginx holds each stream's newest
for 60 s), and on each message naming versions it does not show; its polls' ticks do not ask
while the stream is open; when the stream fails it
polls on its schedule and opens the stream again after min(30, 2^n) × U(0.5, 1) s. A reload is a
new page: a new stream. The server's CPU is the app servers' and nginx's, in both modes.

Tables present at a step's start are seeded through the ORM before the run (a few hands played
each, as in a room where tables started at different times); their phones open their pages (real
page loads, not counted in the step) before the step in which the table first plays; on push
each page opens its stream at once, as app.js does (opened again before the step's clock, not
counted: a socket cannot outlive the event loop of the join). Each step places each table at a
random point of its hand, tapping on from there. Polling phones arrive spread over the step's
first seconds, as at a café: each first asks at a random moment of its first poll interval (up
to 16 s). The client's garbage collector waits for each step's end: a full collection of its
objects stops its event loop for 0.1–0.3 s, which every answer in flight would show as the
server's. The delivery delay of a change is the time from a save's
answer to the moment a watching phone (a viewer's, a joined player's) is shown its version: 0
when the push brought it before the answer reached the scorer.

The load is open-loop: each phone fires on its own clock whether or not the server has answered
the last request, as real phones do, so a slow server shows up as latency, not as less load
(what a person does after a page arrives, a correction or a new match, waits for that page).
The tables are stepped up (`--steps`), each step for `--step-seconds`; a table count is
"carried" when its step has no error and a p95 under `--p95-ms`. The first step of a mode that
is not carried is run once more (the machine may be busy with something else), and if it fails
again it is that mode's last: beyond capacity, more load only piles up timeouts.

The restart step (`--restart-seconds`, 40 s): the push stack's tables of its last step (their
phones have opened their pages); halfway, nginx is stopped (SIGTERM, `nginx -s stop`: every
stream cut) and started again. It reports how many of the phones that held a stream held it
again, when every one of them showed the latest version (on opening, if it showed its table's
newest save; else once its ask was answered; goal ≤ 10 s), and the app servers' request rate
before the stop and at its highest after the start (no storm). Requests refused or cut while
nginx was down are that step's expected errors, not counted in the run's.

At the end, for each stack: push and polling side by side at the largest step each carried
(tables, their ratio, requests a second, p95, the server's CPU and nginx's, the CPU a table, the
delivery delay's median, p95 and max), the restart, and whether the goals hold: a change reaches
every phone in ≤ 1 s median, ≤ 2.5 s at most, with push; push carries ≥ 2 × polling's tables;
every phone back within 10 s of a restart. Each run also measures the minimal view's median
(one request at a time: the machine's speed that day).

`--servers 1,2 --balancer` is the scaled-out stack: that many app servers (each `--workers`
gunicorn processes of `--threads`) behind nginx (each link's requests to one process), the cache on
Redis (`--cache redis`), the database from DATABASE_URL (scripts/with-postgres.sh). After each
stack's load it checks, through the balancer and on each server directly: a save sent to one server
and retried on the other is saved once; two corrections of one hand version on two servers: the
second gets the conflict; 20 misses from one address, answered by both servers, all the plain 404,
after which a link a phone was sent still opens from that address.

Each step also prints its p95 and the server's CPU from ARRIVED s in, once every phone is there.

`--commit-probe` only measures what a SQLite commit costs on this disk and what concurrent
writers wait, with synchronous=FULL (the app's) and NORMAL, and stops.

`--wait-sample` also prints, after each step, where the app servers' threads were on average
(sampled from /proc every 10 ms: running, waiting for the GIL, in fsync, sleeping in SQLite's
busy handler, idle): what the server waits on, beside its CPU (docs/performance.md, "What
waits").

The client is a few lines of asyncio over raw sockets (one connection per request: a phone that
asks every few seconds has let its keep-alive lapse; one held connection per stream), with
uvloop when installed: it runs on the same 2 cores as the server, so it must cost little. Only
127.0.0.1 (and 127.0.0.2, a second client address) is ever contacted; every run is bounded in
time.

Its parts, each calling only those above it:
- page.py: what a page or an answer gives a phone (versions, links, schedules, forms, headers);
- phones.py: what each phone's page knows, what a table is; taps.py: a hand, tap by tap;
- figures.py: a step's figures, its report and the summary against the goal;
- machine.py: CPU and thread waits from /proc; commit_probe.py: --commit-probe;
- browser.py: the HTTP client; actions.py: each kind of request a phone makes;
- push.py: a phone on push (its stream, its asks, its fallback, the restart's record);
- traffic.py: each phone's clock, the hands, tables arriving, a step (class Load);
- seed.py: the tables seeded through the ORM; checks.py: the exactly-once and cross-server
  checks; stack.py: one stack of servers (bench/harness.py); stacks.py: push and polling's
  steps, alternating, and the restart step;
- __main__.py: the command line (`python -m bench.loadtest --help`).
"""
