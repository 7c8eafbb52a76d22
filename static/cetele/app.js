// Çetele's few behaviours that need JavaScript. Everything here is an enhancement:
// the pages work without it. No inline scripts anywhere (the CSP forbids them).
(function () {
  "use strict";

  // What only a page without JavaScript needs ("Göstergeyi göster": here every tap does it) hides.
  document.documentElement.classList.add("js");

  // Keep the phone's screen awake while a score sheet is open (Screen Wake Lock API).
  let wakeLock = null;
  async function keepAwake() {
    if (!document.querySelector("[data-keep-awake]") || !("wakeLock" in navigator)) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
    } catch (err) {
      wakeLock = null; // Denied (battery saver, not visible): the sheet still works.
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wakeLock === null) keepAwake();
    if (document.visibilityState === "hidden") wakeLock = null;
  });

  // Copy and share buttons: data-copy="text", data-share-url / data-share-text.
  document.addEventListener("click", async function (event) {
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      event.preventDefault();
      try {
        await navigator.clipboard.writeText(copy.dataset.copy);
        copy.dataset.done = "1";
        const done = copy.dataset.copiedLabel;
        if (done) copy.textContent = done;
      } catch (err) { /* Clipboard refused: the link stays visible to copy by hand. */ }
      return;
    }
    const share = event.target.closest("[data-share-url], [data-share-text]");
    if (share && navigator.share) {
      event.preventDefault();
      try {
        await navigator.share({
          title: share.dataset.shareTitle || document.title,
          text: share.dataset.shareText || undefined,
          url: share.dataset.shareUrl || undefined,
        });
      } catch (err) { /* The user closed the share sheet. */ }
    }
  });

  // Hide share buttons where the Web Share API does not exist.
  function hideUnsupported(root) {
    if (navigator.share) return;
    root.querySelectorAll("[data-share-url], [data-share-text]").forEach(function (el) {
      if (el.tagName === "BUTTON") el.classList.add("hidden");
    });
  }

  // "Maçlarım": this phone remembers the matches it started or opened, in localStorage only.
  const STORE = "cetele.matches";
  function myMatches() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { return []; }
  }
  function keepMatches(list) {
    try { localStorage.setItem(STORE, JSON.stringify(list.slice(0, 30))); } catch (err) { /* full */ }
  }
  function dropMatches(keys) {
    keepMatches(myMatches().filter(function (m) { return keys.indexOf(m.key) < 0; }));
  }
  function rememberMatch() {
    const el = document.querySelector("[data-remember-match]");
    if (!el) return;
    let list = myMatches();
    const entry = {
      url: el.dataset.rememberMatch,
      title: el.dataset.matchTitle || "",
      state: el.dataset.matchState || "",
      role: el.dataset.matchRole || "view",
      at: Date.now(),
    };
    const key = el.dataset.matchKey || "";
    entry.key = key;
    // A rotated link leaves the same match under a new URL: replace it, don't list it twice.
    list = list.filter(function (m) {
      return m.url !== entry.url && !(key && m.key === key && m.role === entry.role);
    });
    list.unshift(entry);
    keepMatches(list);
  }
  // Matches or a table just deleted from this phone ([data-forget-match]: their keys, comma
  // separated; views_data): drop them from the list.
  function forgetMatch() {
    const el = document.querySelector("[data-forget-match]");
    if (el) dropMatches(el.dataset.forgetMatch.split(","));
  }
  function listMatches() {
    const box = document.querySelector("[data-my-matches]");
    if (!box) return;
    const list = myMatches();
    const ul = box.querySelector("ul");
    if (!list.length || !ul) return;
    list.forEach(function (m) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = m.url;
      a.textContent = m.title || m.url;
      li.appendChild(a);
      if (m.role === "view" && box.dataset.viewLabel) {
        const role = document.createElement("span");
        role.className = "muted small";
        role.textContent = " (" + box.dataset.viewLabel + ")";
        li.appendChild(role);
      }
      if (m.state) {
        const span = document.createElement("span");
        span.className = "muted small";
        span.textContent = " · " + m.state;
        li.appendChild(span);
      }
      ul.appendChild(li);
    });
    box.classList.remove("hidden");
  }

  // Live sheet ([data-poll], match.html#sheet): of htmx's 4-s ticks, only those due ask (none
  // while hidden), at once when shown again, never once the link stopped working. Due: by the
  // schedule (cetele/live/schedule.py, data-poll-schedule "120:16,900:8,…": quiet under 120 s,
  // every 16 s; …; 0: from then on) and how long the match was quiet when drawn (data-quiet).
  function drawnAt(el) {
    if (!el.cetelePoll) el.cetelePoll = { drawn: Date.now(), last: 0, now: false };
    return el.cetelePoll.drawn;
  }
  // `schedule`: another than the sheet's own, by the sheet's quiet (seats.js: the rows' pace).
  function pollEvery(el, schedule) {
    const quiet = Number(el.dataset.quiet || 0) + (Date.now() - drawnAt(el)) / 1000;
    const parts = (schedule || el.dataset.pollSchedule || "").split(",");
    for (let i = 0; i < parts.length; i++) {
      const pair = parts[i].split(":").map(Number);
      if (pair.length === 2 && (pair[0] === 0 || quiet < pair[0])) return pair[1];
    }
    return 4; // no schedule: every tick
  }
  window.ceteleSheetPace = pollEvery;
  function markDrawn(root) {
    if (!root || !root.querySelectorAll) return;
    if (root.matches && root.matches("[data-poll]")) drawnAt(root);
    root.querySelectorAll("[data-poll]").forEach(drawnAt);
  }
  document.addEventListener("htmx:load", function (event) {
    markDrawn(event.detail.elt);
    markSaved(event.detail.elt);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    const el = event.detail.elt;
    if (!el.matches || !el.matches("[data-poll]")) return;
    if (document.hidden || el.dataset.pollStopped) { event.preventDefault(); return; }
    drawnAt(el);
    const poll = el.cetelePoll;
    const now = Date.now();
    const due = (poll.last || poll.drawn) + pollEvery(el) * 1000 - 1000; // a tick may be early
    if (!poll.now && now < due) { event.preventDefault(); return; }
    poll.now = false;
    poll.last = now;
  });
  // [data-skip-repeats] (previews, a phone's row): a field left sends "change" with the fields
  // its typing's "input" sent; not asked again. A submit always asks.
  document.addEventListener("htmx:configRequest", function (e) {
    const d = e.detail, f = d.elt, on = d.triggeringEvent;
    if (!f.matches || !f.matches("[data-skip-repeats]")) return;
    f.ceteleAsked = new URLSearchParams(d.formData) + "";
    if (on && on.type !== "submit" && f.ceteleAsked === f.ceteleShown) e.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    const f = e.detail.elt;
    if (f.matches && f.matches("[data-skip-repeats]")) f.ceteleShown = e.detail.successful && f.ceteleAsked;
  });
  function pollNow(el) {
    drawnAt(el);
    el.cetelePoll.now = true;
    window.htmx.trigger(el, "visible-again");
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    document.querySelectorAll("[data-poll]").forEach(pollNow);
  });
  // "Back" shows the page as cached, even a no-cache one (rows of hands deleted since): ask.
  window.addEventListener("pageshow", function (e) {
    const nav = performance.getEntriesByType("navigation")[0];
    if (e.persisted || (nav && nav.type === "back_forward")) document.dispatchEvent(new Event("cetele:poll-now"));
  });
  // Ask at once: the connection is back (offline.js sends this).
  document.addEventListener("cetele:poll-now", function () {
    if (window.htmx) document.querySelectorAll("[data-poll]").forEach(pollNow);
  });
  // A hand saved here: the answer has the note and the next form, not the sheet (one drawing
  // for every phone): ask for it now and mark the hand's row. A correction's page names its
  // hand (data-just-saved).
  const corrected = document.querySelector("[data-just-saved]");
  let justSaved = corrected && corrected.dataset.justSaved;
  document.addEventListener("cetele:hand-saved", function (event) {
    justSaved = event.detail && event.detail.number;
    // The flash messages above ("Rövanş başladı", "Geri alındı: …") were about what came
    // before this hand: without JavaScript the save's new page would not show them either.
    document.querySelectorAll("#main > .messages").forEach(function (el) { el.remove(); });
    if (window.htmx) document.querySelectorAll("[data-poll]").forEach(pollNow);
  });
  function markSaved(root) {
    if (!justSaved || !root || !root.querySelector) return;
    const row = root.querySelector('tr[data-hand="' + Number(justSaved) + '"]');
    if (!row) return;
    row.classList.add("just-saved");
    justSaved = null;
  }
  function linkGone(el) {
    if (el && el.dataset) el.dataset.pollStopped = "1";
    live.stopped = true; // nothing more will come
    closeStream();
    document.querySelectorAll("[data-link-gone]").forEach(function (note) {
      note.classList.remove("hidden");
    });
  }
  // A rotated or deleted link: the poll is answered 286 (htmx stops) with this event, others 410.
  document.addEventListener("cetele:link-changed", function (event) { linkGone(event.target); });
  // The match was deleted (cetele.sharing.links.match_deleted): its names and hands leave the
  // screen and "Maçlarım", and the page says why.
  document.addEventListener("cetele:match-deleted", function () {
    live.stopped = true;
    closeStream();
    const note = document.querySelector("[data-match-deleted]");
    const main = document.getElementById("main");
    if (!note || !main) return;
    const keys = [];
    document.querySelectorAll("[data-poll]").forEach(function (el) {
      el.dataset.pollStopped = "1";
      if (el.dataset.matchKey) keys.push(el.dataset.matchKey);
    });
    dropMatches(keys);
    note.classList.remove("hidden");
    main.replaceChildren(note);
    document.title = "Çetele";
  });
  document.addEventListener("htmx:responseError", function (event) {
    const el = event.detail.elt;
    if (!el.matches || !el.matches("[data-poll]") || event.detail.xhr.status !== 404) return;
    linkGone(el);
  });

  // Live by push ([data-stream], cetele/live/push.py): told "<sheet's version>.<rows' version>"
  // at each change, the page asks only for what it does not show yet: its rows where it has them
  // (their answer asks for the sheet when that changed too), else its sheet; each phone a moment
  // after the others (a table's phones are told at once). Its polls' ticks (no triggering
  // event) do not ask while the stream is open. Each opening asks once, after a random moment
  // (up to 1 s), but the first of a page the server drew moments ago: a change saved since it
  // was drawn is the stream's first message (nginx holds each stream's newest for 60 s,
  // deploy/nginx.conf.in). A failed stream: the ticks ask, and it is tried again after 1, 2,
  // 4 … 30 s. Opened again, it asks (after up to 5 s: a restarted server is not met by every
  // phone at once) only if the page may be behind: hidden or offline meanwhile, an ask it was
  // told to make cut with the stream, or down longer than nginx holds a message. Else what it
  // missed is the stream's first message: the newest nginx holds, or what Django sends again
  // once a restarted nginx takes it.
  const live = { url: "", tries: 0, opened: false, lost: 0, behind: false };
  const FRESH_MS = 30000;
  const HELD_MS = 45000; // under the 60 s nginx holds a message
  function drawnMomentsAgo() {
    return !live.opened && performance.now() < FRESH_MS && !document.body.hasAttribute("data-offline");
  }
  function mayHaveMissed() {
    if (!live.opened || !live.lost) return !drawnMomentsAgo();
    return live.behind || performance.now() - live.lost > HELD_MS;
  }
  document.addEventListener("visibilitychange", function () { if (document.hidden) live.behind = true; });
  window.addEventListener("offline", function () { live.behind = true; });
  function shown(el, name) {
    return new URLSearchParams((el.getAttribute("hx-get") || "").split("?")[1]).get(name);
  }
  function ask(data) {
    const [v, d] = (data || "").split(".");
    const rows = document.querySelector("[data-table-rows]");
    if (rows && (!d || shown(rows, "v") !== v || shown(rows, "d") !== d)) {
      document.body.dispatchEvent(new Event("cetele:rows-now"));
    } else if (!rows) {
      document.querySelectorAll("[data-poll]").forEach(function (el) { if (!d || shown(el, "v") !== v) pollNow(el); });
    }
  }
  function closeStream() {
    if (live.source) live.source.close();
    live.source = live.open = null;
    clearTimeout(live.timer);
  }
  function openStream() {
    closeStream();
    if (live.stopped || !window.EventSource || !window.htmx) return;
    const source = live.source = new EventSource(live.url);
    source.onopen = function () {
      if (mayHaveMissed()) live.timer = setTimeout(ask, Math.random() * (live.tries ? 5000 : 1000));
      live.open = live.opened = true;
      live.tries = live.lost = 0;
      live.behind = document.hidden;
    };
    source.onmessage = function (e) { setTimeout(ask, Math.random() * 300, e.data); };
    source.onerror = function () {
      if (!live.lost) live.lost = performance.now();
      closeStream();
      live.timer = setTimeout(openStream, Math.min(30, 2 ** live.tries++) * (500 + Math.random() * 500));
    };
  }
  document.addEventListener("htmx:load", function () {
    const el = document.querySelector("[data-stream]");
    if (el && el.dataset.stream !== live.url) { live.url = el.dataset.stream; live.lost = 0; openStream(); }
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (live.open && e.detail.elt.matches("[data-poll], [data-table-rows]") && !e.detail.requestConfig.triggeringEvent) e.preventDefault();
  });
  // An ask that failed while the stream is open (a restarted server met it half up) is sent
  // again after 1–3 s: the ticks do not ask, so the page would stay behind until the next change.
  // One failed with the stream (not a tick's) is owed: the stream opening again asks.
  function askAgain(e) {
    const el = e.detail.elt;
    if (!el.matches || !el.matches("[data-poll], [data-table-rows]")) return;
    if (e.type === "htmx:responseError" && e.detail.xhr.status < 500) return;
    if (!live.open) { if (e.detail.requestConfig && e.detail.requestConfig.triggeringEvent) live.behind = true; return; }
    clearTimeout(live.again);
    live.again = setTimeout(ask, 1000 + Math.random() * 2000);
  }
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (type) {
    document.addEventListener(type, askAgain);
  });

  // An answer whose element was swapped away while it was asked (a sheet's answer that comes
  // after a tap's answer brought a newer sheet; a tap's after a sheet's answer brought a newer
  // card) is not swapped: htmx would put it into a page no longer shown, and look for its
  // out-of-band parts there. The page asks again from what it shows now: a 204 when that is the
  // newest. Such an answer's events stay in the element swapped away, so each target is
  // listened to as well as the document.
  function dropIfSwappedAway(event) {
    const d = event.detail;
    if (d.ceteleChecked || !d.shouldSwap) return;
    d.ceteleChecked = true;
    const asker = d.requestConfig && d.requestConfig.elt;
    if (!d.target || (d.target.isConnected && (!asker || asker.isConnected))) return;
    d.shouldSwap = false;
    ask();
  }
  document.addEventListener("htmx:beforeSwap", dropIfSwappedAway);
  document.addEventListener("htmx:beforeRequest", function (e) {
    const target = e.detail.target;
    if (!target || target.ceteleWatched) return;
    target.ceteleWatched = true;
    target.addEventListener("htmx:beforeSwap", dropIfSwappedAway);
  });

  function init() {
    markDrawn(document);
    keepAwake();
    hideUnsupported(document);
    rememberMatch();
    forgetMatch();
    listMatches();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  document.addEventListener("htmx:afterSettle", function (event) {
    hideUnsupported(event.target);
    rememberMatch();
  });
})();

// The hand form (see _hand_form.html). Without this script the form still works: the server
// refuses a sum typed for a player who did not open, and the sum field is always there.
(function () {
  "use strict";

  function row(el) { return el.closest(".seat-row"); }
  function radio(rowEl, name, value) {
    return rowEl.querySelector('input[type="radio"][name$="-' + name + '"][value="' + value + '"]');
  }
  function fire(el, type) { el.dispatchEvent(new Event(type, { bubbles: true })); }

  // Typing a sum for a player still on "Açmadı" means they opened: mark "Seri" at once (the
  // player can still change it to "Çift").
  document.addEventListener("input", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches(".seat-row .sum input") || input.value === "") return;
    const r = row(input);
    const no = radio(r, "opened", "no");
    if (no && no.checked) radio(r, "opened", "series").checked = true;
  });

  // Tapping "Bitirdi" collapses the row: the finisher holds no tiles, so their sum and okeys
  // are cleared where everyone sees the row change; on capture, before htmx reads the form.
  document.addEventListener("change", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches('.finish input[name="finisher"]') || !input.checked) return;
    const r = row(input);
    const rows = [r];
    // With teams whose partner writes 0, the partner's row collapses too (app.css .partner-zero).
    const form = r.closest(".partner-zero");
    const seat = Number(r.id.replace("seat-", ""));
    const partner = form && form.querySelector("#seat-" + ((seat + 2) % 4));
    if (partner) rows.push(partner);
    rows.forEach(function (cleared) {
      const sum = cleared.querySelector(".sum input");
      if (sum) sum.value = "";
      ["okeys", "fake_okeys"].forEach(function (name) {
        const zero = radio(cleared, name, "0");
        if (zero) zero.checked = true;
      });
    });
  }, true);

  // "Taşları say": tap the tiles off the rack; the dialog adds them up and fills the row.
  let counting = null; // {row, tiles: [1..13 | "okey" | "fake"]}
  function dialog() { return document.querySelector("[data-tile-counter]"); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }
  function tally(tiles) {
    const t = { n: tiles.length, sum: 0, okeys: 0, fakes: 0 };
    tiles.forEach(function (tile) {
      if (tile === "okey") t.okeys += 1;
      else if (tile === "fake") t.fakes += 1;
      else t.sum += tile;
    });
    return t;
  }
  function render() {
    const d = dialog();
    const t = tally(counting.tiles);
    let status = fill(d.dataset.status, t);
    if (t.okeys) status += " · " + fill(d.dataset.okeys, t);
    if (t.fakes) status += " · " + fill(d.dataset.fakes, t);
    d.querySelector("[data-count-status]").textContent = status;
    d.querySelector("[data-count-tiles-list]").textContent = counting.tiles.map(function (tile) {
      // Real sets print a star (or clover) on the fake okey, so ★ is the fake okey here.
      return tile === "okey" ? "OK" : tile === "fake" ? "★" : tile;
    }).join(" ");
    d.querySelector('[data-tile="okey"]').disabled = t.okeys >= 2;
    d.querySelector('[data-tile="fake"]').disabled = t.fakes >= 2;
  }
  document.addEventListener("click", function (event) {
    const open = event.target.closest("[data-count-tiles]");
    const d = dialog();
    if (open && d) {
      counting = { row: row(open), tiles: [] };
      d.querySelector("[data-count-name]").textContent =
        counting.row.querySelector(".seat-name").textContent;
      render();
      d.showModal();
      return;
    }
    if (!counting || !d || !d.contains(event.target)) return;
    const tile = event.target.closest("[data-tile]");
    if (tile) {
      const value = tile.dataset.tile;
      counting.tiles.push(value === "okey" || value === "fake" ? value : Number(value));
      render();
    } else if (event.target.closest("[data-count-undo]")) {
      counting.tiles.pop();
      render();
    } else if (event.target.closest("[data-count-cancel]")) {
      d.close();
      counting = null;
    } else if (event.target.closest("[data-count-done]")) {
      const t = tally(counting.tiles);
      const r = counting.row;
      [["okeys", t.okeys], ["fake_okeys", t.fakes]].forEach(function (pair) {
        const choice = radio(r, pair[0], String(pair[1]));
        if (choice) { choice.checked = true; fire(choice, "change"); }
      });
      if (t.okeys || t.fakes) r.querySelector("details.more").open = true;
      const sum = r.querySelector(".sum input");
      sum.value = String(t.sum);
      fire(sum, "input");
      d.close();
      counting = null;
      sum.focus();
    }
  });

  function showCounters(root) {
    root.querySelectorAll("[data-count-tiles]").forEach(function (b) { b.hidden = false; });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { showCounters(document); });
  } else showCounters(document);
  document.addEventListener("htmx:afterSettle", function () { showCounters(document); });

  // The tea card comes after the page, and its tea.js (taps without signal) after the card; a
  // page from the phone's copy, without a connection, keeps the card's plain link instead.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const el = event.detail.elt;
    if (!navigator.onLine && el.matches("[data-asks-when-drawn]")) event.preventDefault();
  });
  document.addEventListener("htmx:load", function (event) {
    const src = event.detail.elt.dataset.teaScript;
    if (src && !window.ceteleTea) document.head.appendChild(document.createElement("script")).src = src;
  });
})();
