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
  function rememberMatch() {
    const el = document.querySelector("[data-remember-match]");
    if (!el) return;
    let list = [];
    try { list = JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { list = []; }
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
    try { localStorage.setItem(STORE, JSON.stringify(list.slice(0, 30))); } catch (err) { /* full */ }
  }
  // Matches or a table just deleted from this phone ([data-forget-match]: their keys, comma
  // separated; views_data): drop them from the list.
  function forgetMatch() {
    const el = document.querySelector("[data-forget-match]");
    if (!el) return;
    let list = [];
    try { list = JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { return; }
    const keys = el.dataset.forgetMatch.split(",");
    list = list.filter(function (m) { return keys.indexOf(m.key) < 0; });
    try { localStorage.setItem(STORE, JSON.stringify(list)); } catch (err) { /* full */ }
  }
  function listMatches() {
    const box = document.querySelector("[data-my-matches]");
    if (!box) return;
    let list = [];
    try { list = JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { list = []; }
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

  // Live sheet ([data-poll], see match.html#sheet): htmx ticks every 4 s; here we let a tick
  // ask only when a poll is due, none while the page is hidden, ask at once when it shows
  // again, and stop for good when the link no longer works (rotated), saying so instead of
  // asking again and again. When a poll is due (cetele/live/schedule.py): the sheet says how long the
  // match had been quiet when it was drawn (data-quiet, s) and the schedule
  // (data-poll-schedule "120:16,900:8,…": quiet under 120 s, every 16 s; under 900 s, every 8 s…;
  // 0: from then on). A table that plays is asked every 8 s, a quiet one far less often.
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
  // A hand saved from this page: the answer (cetele/matches/views.py hand_saved) has the note and the
  // next hand's form but not the sheet, which every phone of the match is given from one
  // drawing. Ask for it now, and mark the saved hand's row when it comes. A correction's page
  // names its hand (data-just-saved): its row is marked as the page opens.
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
    live.stopped = true;
    closeStream();
    document.querySelectorAll("[data-link-gone]").forEach(function (note) {
      note.classList.remove("hidden");
    });
  }
  // A rotated or deleted link: the server answers the poll with 286 (htmx stops polling) and
  // this event (HX-Trigger), other requests with 410 and the same event.
  document.addEventListener("cetele:link-changed", function (event) { linkGone(event.target); });
  // The match was deleted (cetele.sharing.links.match_deleted: to a phone that had it open, the same
  // answers with this event): its names and hands leave the screen and this phone's "Maçlarım",
  // and the page says why.
  document.addEventListener("cetele:match-deleted", function () {
    const note = document.querySelector("[data-match-deleted]");
    const main = document.getElementById("main");
    if (!note || !main) return;
    const keys = [];
    document.querySelectorAll("[data-poll]").forEach(function (el) {
      el.dataset.pollStopped = "1";
      if (el.dataset.matchKey) keys.push(el.dataset.matchKey);
    });
    let list = [];
    try { list = JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (err) { list = []; }
    list = list.filter(function (m) { return keys.indexOf(m.key) < 0; });
    try { localStorage.setItem(STORE, JSON.stringify(list)); } catch (err) { /* full */ }
    note.classList.remove("hidden");
    main.replaceChildren(note);
    document.title = "Çetele";
  });
  document.addEventListener("htmx:responseError", function (event) {
    const el = event.detail.elt;
    if (!el.matches || !el.matches("[data-poll]") || event.detail.xhr.status !== 404) return;
    linkGone(el);
  });

  // Live by push ([data-stream], cetele/live/push.py): while the page holds its stream, the
  // server says when the match changed and the page asks at once; its polls' ticks do not ask
  // (a tick has no triggering event). Each time the stream opens it asks once, after a moment
  // drawn at random (a restarted server is not met by every phone at once): what changed while
  // it was closed is never left unseen. When the stream fails (a proxy that buffers, a dropped
  // network, the server restarting) the polls' schedule asks meanwhile, and the stream is tried
  // again later and later (1 s, 2 s, 4 s … up to 30 s, each at random from half to whole).
  const live = { source: null, url: "", open: false, tries: 0, timer: 0, stopped: false };
  function askAll() {
    if (!window.htmx) return;
    document.querySelectorAll("[data-poll]").forEach(pollNow);
    document.body.dispatchEvent(new Event("cetele:rows-now"));
  }
  function closeStream() {
    if (live.source) live.source.close();
    live.source = null;
    live.open = false;
    clearTimeout(live.timer);
  }
  function openStream() {
    closeStream();
    if (live.stopped || !live.url || !window.EventSource) return;
    const source = new EventSource(live.url);
    live.source = source;
    source.onopen = function () {
      live.open = true;
      live.tries = 0;
      live.timer = setTimeout(askAll, Math.random() * 1500);
    };
    source.onmessage = askAll;
    source.onerror = function () {
      closeStream();
      const wait = Math.min(30, Math.pow(2, live.tries++)) * (0.5 + Math.random() / 2);
      live.timer = setTimeout(openStream, wait * 1000);
    };
  }
  function followStream(root) {
    const el = root && root.querySelector && (root.matches("[data-stream]") ? root : root.querySelector("[data-stream]"));
    if (!el || el.dataset.stream === live.url) return;
    live.url = el.dataset.stream;
    openStream();
  }
  document.addEventListener("htmx:load", function (event) { followStream(event.detail.elt); });
  document.addEventListener("htmx:beforeRequest", function (event) {
    const el = event.detail.elt;
    if (live.open && el.matches && el.matches("[data-poll], [data-table-rows]") && !event.detail.requestConfig.triggeringEvent) {
      event.preventDefault();
    }
  });
  // Back on screen or back online: a stream the phone dropped meanwhile is opened at once.
  ["visibilitychange", "cetele:poll-now"].forEach(function (name) {
    document.addEventListener(name, function () {
      if (!document.hidden && live.url && !live.open && live.tries) openStream();
    });
  });
  // The link stopped working or the match is gone: nothing more will come.
  ["cetele:link-changed", "cetele:match-deleted"].forEach(function (name) {
    document.addEventListener(name, function () { live.stopped = true; closeStream(); });
  });

  function init() {
    markDrawn(document);
    followStream(document.body);
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

// House presets this phone made or opened, in localStorage only (like "Maçlarım"): listed on
// the rules page and offered first when starting a match. Nobody else's presets are ever listed.
(function () {
  "use strict";
  const STORE = "cetele.presets";

  function load() {
    try {
      const list = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (err) { return []; }
  }
  function save(list) {
    try { localStorage.setItem(STORE, JSON.stringify(list.slice(0, 20))); } catch (err) { /* full */ }
  }
  function remember(entry) {
    const list = load();
    const old = list.find(function (p) { return p.value === entry.value; }) || {};
    const merged = Object.assign({}, old, entry, { at: Date.now() });
    if (!merged.edit) delete merged.edit;
    save([merged].concat(list.filter(function (p) { return p.value !== entry.value; })));
  }

  // A house preset's page ([data-remember-preset]); its edit page also gives the edit link.
  function rememberPreset() {
    const el = document.querySelector("[data-remember-preset]");
    if (!el) return;
    const entry = { value: el.dataset.rememberPreset, name: el.dataset.presetName || "",
                    url: el.dataset.presetUrl || "" };
    if (el.dataset.presetEditUrl) entry.edit = el.dataset.presetEditUrl;
    remember(entry);
  }

  // A house preset just deleted from this phone ([data-forget-preset]): drop it from the list.
  function forgetPreset() {
    const el = document.querySelector("[data-forget-preset]");
    if (!el) return;
    const value = el.dataset.forgetPreset;
    save(load().filter(function (p) { return p.value !== value; }));
  }

  // The rules page: this phone's house presets.
  function listPresets() {
    const box = document.querySelector("[data-my-presets]");
    const ul = box && box.querySelector("ul");
    if (!ul) return;
    const houses = load().filter(function (p) { return p.url && p.value.indexOf("house:") === 0; });
    houses.forEach(function (p) {
      const li = document.createElement("li");
      li.className = "card";
      const a = document.createElement("a");
      a.href = p.url;
      a.textContent = p.name || p.url;
      li.appendChild(a);
      if (p.edit) {
        li.appendChild(document.createTextNode(" · "));
        const edit = document.createElement("a");
        edit.href = p.edit;
        edit.textContent = box.dataset.editLabel || "edit";
        li.appendChild(edit);
      }
      ul.appendChild(li);
    });
    if (houses.length) box.classList.remove("hidden");
  }

  // Starting a match: this phone's recent presets first; remember the one chosen.
  function recentFirst() {
    const select = document.querySelector("select[data-recent-presets]");
    if (!select) return;
    const recent = load();
    if (!recent.length) return;
    // Moving the chosen option into the group must not change the choice: a link that named a
    // preset ("Bu kurallarla maç başlat") starts exactly that preset, in whatever order.
    const chosen = select.value;
    const group = document.createElement("optgroup");
    group.label = select.dataset.recentLabel || "";
    recent.forEach(function (p) {
      let option = Array.prototype.find.call(select.options, function (o) { return o.value === p.value; });
      if (option && option.parentNode === group) return;
      if (!option) {
        if (p.value.indexOf("house:") !== 0) return; // a built-in that no longer exists
        option = document.createElement("option");
        option.value = p.value;
        option.textContent = p.name || p.value;
      }
      group.appendChild(option);
    });
    if (!group.children.length) return;
    select.insertBefore(group, select.firstChild);
    select.querySelectorAll("optgroup").forEach(function (g) { if (!g.children.length) g.remove(); });
    select.value = select.hasAttribute("data-prefer-recent") ? group.firstChild.value : chosen;
    showChosen(select.form);
  }

  // Beside "Maçı başlat": the rules, cezalı or not and the hands it will start with, in words.
  function showChosen(form) {
    const box = form && form.querySelector("[data-chosen-rules]");
    if (!box) return;
    const select = form.querySelector("select[data-recent-presets]");
    const option = select && select.selectedOptions[0];
    if (option) box.querySelector("[data-chosen-name]").textContent = option.textContent;
    const penalties = box.querySelector("[data-chosen-penalties]");
    const cezali = form.querySelector('input[name="cezali"]:checked');
    if (cezali) penalties.textContent = cezali.value === "0" ? penalties.dataset.cezasiz : penalties.dataset.cezali;
    const hands = form.querySelector('select[name="planned_hands"]');
    if (hands) box.querySelector("[data-chosen-hands]").textContent = hands.value;
    // The built-in standard is one tap away whenever something else is chosen.
    const standard = box.querySelector("[data-standard-preset]");
    if (standard && select) standard.hidden = select.value === standard.dataset.standardPreset;
  }
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-standard-preset]");
    if (!button) return;
    const select = button.form.querySelector("select[data-recent-presets]");
    select.value = button.dataset.standardPreset;
    showChosen(button.form);
  });
  document.addEventListener("change", function (event) {
    const form = event.target.form;
    if (form && form.matches("[data-match-create]")) showChosen(form);
  });
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches || !form.matches("[data-match-create]")) return;
    const select = form.querySelector("select[data-recent-presets]");
    const option = select && select.selectedOptions[0];
    if (!option) return;
    const known = load().find(function (p) { return p.value === option.value; }) || {};
    remember({ value: option.value, name: known.name || option.textContent, url: known.url || "" });
  });

  function init() {
    rememberPreset();
    forgetPreset();
    listPresets();
    recentFirst();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
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
