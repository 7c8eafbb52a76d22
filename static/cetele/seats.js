// The joined phones' rows (cetele/seats): the rows' poll pauses while the page is hidden or has no
// connection, and on the scorer's page each row a phone wrote is filled into the hand form. The
// scorer's own typing is never overwritten: a field the scorer has touched keeps its value, and
// where the phone's differs the row says so with one tap to take it. Without this script the
// scorer reads the rows in the list above the form and types them, as without phones. A joined
// phone without signal keeps its row and its gösterge until it can send them (below).
(function () {
  "use strict";

  // A copy of this page opened offline needs this script and its style: the worker keeps them
  // when a page that uses them asks (sw.js), not when it installs, for most phones never join
  // a table and every phone pays for what the worker keeps at install (the page budget).
  const own = document.currentScript && document.currentScript.src;
  if (own && "serviceWorker" in navigator) {
    const style = document.querySelector('link[rel="stylesheet"][href*="/seats"]');
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ assets: [own].concat(style ? [style.href] : []) });
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const el = event.detail.elt;
    if (!el.matches) return;
    const kind = kindOf(el);
    // Not while hidden, nor without a connection (offline.js says so for the sheet).
    const idle = document.hidden || !navigator.onLine;
    if (el.matches("[data-table-rows]") && idle) event.preventDefault();
    // A joined phone's row or gösterge that waits goes first: the poll would move the forms to
    // the next hand before the server said what became of them.
    else if (el.matches("[data-table-rows]") && waiting().length) {
      event.preventDefault();
      sendWaiting();
    } else if (kind && !navigator.onLine) {
      event.preventDefault();
      keep(kind, el);
    } else if (kind) inFlight.add(kind);
  });

  // --- A joined phone without signal -------------------------------------------------------
  // Its row, and the gösterge it taps, wait on the phone (localStorage, under the match's phone
  // key and the hand's place: never the link) and are sent when the connection is back: at the
  // "online" event, at the next request that gets through, every 10 s, or when the page is
  // opened again (sw.js keeps the page itself). The server then says what became of each, as
  // when sent at once: kept, or not applied because the hand was saved meanwhile (or, for a
  // gösterge, because the scorer set another: cetele.seats.views.join_row,
  // cetele.deal.views.join_indicator).
  // Each kind: its key's start in localStorage, its form (which stays itself once the answer
  // has replaced it: it is then out of the page), where it lives, where its answer shows, where
  // a kept one is sent from a page that has moved on.
  const KINDS = [
    { name: "row", prefix: "cetele.row.", form: "form[data-own-row]", box: "my-row",
      status: "row-status", path: "satir/" },
    { name: "gosterge", prefix: "cetele.gosterge.", form: "form[data-own-indicator]", box: "indicator",
      status: "indicator-status", path: "gosterge/" },
  ];
  const inFlight = new Set(); // the kinds whose form is being sent
  function kindOf(el) {
    return el && el.matches ? KINDS.find(function (kind) { return el.matches(kind.form); }) : undefined;
  }
  function kindNamed(name) {
    return KINDS.find(function (kind) { return name.indexOf(kind.prefix) === 0; });
  }
  function formOf(kind) { return document.querySelector("#" + kind.box + " " + kind.form); }
  function matchKey() {
    const sheet = document.querySelector("#sheet[data-match-key]");
    return document.getElementById("my-row") && sheet ? sheet.dataset.matchKey : "";
  }
  function waitingKey(kind, position) { return kind.prefix + matchKey() + "." + position; }
  function waiting() { // this match's waiting rows and gösterges, by place (rows first)
    const key = matchKey();
    if (!key) return [];
    const found = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const name = localStorage.key(i);
        KINDS.forEach(function (kind) { if (name.indexOf(kind.prefix + key + ".") === 0) found.push(name); });
      }
    } catch (err) { return []; }
    return found.sort(function (a, b) {
      return placeIn(a) - placeIn(b) || KINDS.indexOf(kindNamed(a)) - KINDS.indexOf(kindNamed(b));
    });
  }
  function placeIn(name) { return Number(name.slice(name.lastIndexOf(".") + 1)); }
  function bodyOf(form) {
    const data = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") data.append(name, value);
    });
    return data.toString();
  }
  function statusOf(kind, form) { return form && form.querySelector("#" + kind.status); }
  // The row's status is a line; the gösterge's holds the okey's words, which the sentence
  // replaces until the server answers.
  function say(kind, form, text, error) {
    const status = statusOf(kind, form);
    if (!status || !text) return;
    if (kind.name === "row") {
      status.textContent = text;
      status.className = error ? "small message error" : "small message";
      return;
    }
    const p = document.createElement("p");
    p.className = error ? "message error" : "message";
    if (error) p.setAttribute("role", "alert");
    p.textContent = text;
    status.replaceChildren(p);
  }
  function sentence(kind, form, which) {
    const status = statusOf(kind, form);
    return (status && status.dataset[which]) || (form && form.dataset[which]) || "";
  }
  function keep(kind, form) {
    try { localStorage.setItem(waitingKey(kind, placeOf(form)), bodyOf(form)); } catch (err) { /* full */ }
    say(kind, form, sentence(kind, form, "kept"));
  }
  function forget(kind, position, body) {
    const name = waitingKey(kind, position);
    try { if (body === undefined || localStorage.getItem(name) === body) localStorage.removeItem(name); } catch (err) { /* */ }
  }
  // The request left and no answer came, or the server failed: it waits. A refusal of the
  // request itself (the link changed: 4xx) would be refused again: it is said, not kept.
  function notSent(event) {
    const form = event.detail.elt;
    const kind = kindOf(form);
    if (!kind) return;
    const xhr = event.detail.xhr;
    if (!xhr || !xhr.status || xhr.status >= 500) { keep(kind, form); return; }
    forget(kind, placeOf(form));
    say(kind, form, sentence(kind, form, "refused"), true);
  }
  // A café's Wi-Fi can hang rather than fail: unanswered in time (offline.js), it waits like one
  // that failed (and the page's next send is not held behind it).
  document.addEventListener("htmx:configRequest", function (event) {
    if (kindOf(event.detail.elt)) event.detail.timeout = window.ceteleUnansweredMs;
  });
  document.addEventListener("htmx:sendError", notSent);
  document.addEventListener("htmx:timeout", notSent);
  document.addEventListener("htmx:responseError", notSent);
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    // The form, also when its answer replaced it (htmx then tells the nearest element left).
    const el = (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
    const kind = kindOf(el);
    if (kind) inFlight.delete(kind);
    if (!xhr || xhr.status < 200 || xhr.status >= 500) return;
    // The server answered it: it waits no more (its answer is on the phone).
    if (kind && xhr.status < 300) {
      const sent = event.detail.requestConfig && event.detail.requestConfig.formData;
      forget(kind, (sent && sent.get("position")) || placeOf(el));
    }
    if (waiting().length) setTimeout(sendWaiting, 0); // the connection is back
  });

  let sending = false;
  async function sendWaiting() {
    if (sending || inFlight.size || !navigator.onLine) return;
    const names = waiting();
    if (!names.length) return;
    sending = true;
    try {
      for (const name of names) {
        const kind = kindNamed(name);
        const position = String(placeIn(name));
        const form = formOf(kind);
        // The form still holds it: send the form as a tap would (htmx shows the answer); it is
        // at least as new as what waits. (htmx's "submit": never the form's own, which would
        // leave the page.)
        if (form && position === placeOf(form)) {
          if (window.htmx) window.htmx.trigger(form, "submit");
          continue;
        }
        if (!(await sendKept(kind, name, position))) return;
      }
    } finally { sending = false; }
  }
  // One kept for a hand the form has moved past (the page was opened again since): sent as it
  // was kept; the answer is a sentence shown where that kind's answers show.
  async function sendKept(kind, name, position) {
    let body;
    try { body = localStorage.getItem(name); } catch (err) { return false; }
    if (body === null) return true;
    const form = formOf(kind);
    const url = form ? form.getAttribute("action") : location.pathname.replace(/\/?$/, "/" + kind.path);
    let csrf = "";
    try { csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["x-csrftoken"] || ""; } catch (err) { /* */ }
    let response;
    try {
      response = await fetch(url, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { "HX-Request": "true", "X-CSRFToken": csrf, "Content-Type": "application/x-www-form-urlencoded" },
        signal: AbortSignal.timeout ? AbortSignal.timeout(window.ceteleUnansweredMs) : undefined,
      });
    } catch (err) { return false; } // still no signal: later
    if (response.status >= 500) return false;
    forget(kind, position, body);
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const told = doc.querySelector("[role=alert]") || doc.getElementById(kind.status);
    const box = document.getElementById(kind.box);
    if (told && box && response.ok) {
      const p = document.createElement("p");
      p.className = told.classList.contains("error") ? "message error" : "message";
      p.setAttribute("role", "alert");
      p.textContent = told.textContent.trim();
      const status = kind.name === "gosterge" && box.querySelector("#" + kind.status);
      if (status) status.prepend(p); // where the rows' poll's redrawing keeps it (below)
      else (box.querySelector("h2") || box.firstChild).after(p);
    }
    return true;
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    const fragment = event.detail.fragment;
    const fresh = fragment && fragment.querySelector('input[name="position"]');
    if (!target || !fresh) return;
    // The rows' poll brings the next hand's empty row once a hand is saved: a form already at
    // that hand keeps what it holds (a refusal said there, what the player began to type).
    const row = formOf(KINDS[0]);
    if (target.id === "my-row" && row && placeOf(row) === fresh.value) event.detail.shouldSwap = false;
    // It brings the gösterge's section again whenever the sheet changed: for the same hand, what
    // the server said of this phone's gösterge (refused, not applied) stays in it.
    const gosterge = formOf(KINDS[1]);
    const status = fragment.querySelector("#indicator-status");
    if (target.id === "indicator" && gosterge && status && placeOf(gosterge) === fresh.value) {
      const said = Array.from(target.querySelectorAll("#indicator-status [role=alert]"));
      const shown = Array.from(status.querySelectorAll("[role=alert]")).map(function (p) { return p.textContent; });
      said.reverse().forEach(function (p) {
        if (shown.indexOf(p.textContent) < 0) status.prepend(p.cloneNode(true));
      });
    }
  });
  // The rows' poll also brings the gösterge's section when the sheet changed: not while this
  // phone's own tap on it is on its way. The new section would take the form's place, and a tap
  // waiting behind that request would be lost with it (htmx drops a request whose element left
  // the page): the answer says what was kept, and the next change brings the section again.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || target.id !== "indicator") return;
    const form = target.querySelector("form");
    if (form && form.classList.contains("htmx-request")) event.detail.shouldSwap = false;
  });
  // What waited while the page was closed: back in its form, to be sent.
  function restore() {
    KINDS.forEach(function (kind) {
      const form = formOf(kind);
      if (!form) return;
      let body = null;
      try { body = localStorage.getItem(waitingKey(kind, placeOf(form))); } catch (err) { /* */ }
      if (body === null) return;
      const data = new URLSearchParams(body);
      Array.from(form.elements).forEach(function (el) {
        if (!el.name || el.name === "position" || el.name === "csrfmiddlewaretoken") return;
        if (el.type === "radio") el.checked = data.get(el.name) === el.value;
        else if (el.type === "checkbox") el.checked = data.has(el.name);
        else if (data.has(el.name)) el.value = data.get(el.name);
      });
      say(kind, form, sentence(kind, form, "kept"));
    });
    sendWaiting();
  }
  window.addEventListener("online", function () { setTimeout(sendWaiting, 300); });
  setInterval(sendWaiting, 10000); // a café's Wi-Fi can be "online" and still carry nothing
  // Once htmx has taken the form over (it does so when the document is parsed).
  if (document.readyState === "complete") restore();
  else window.addEventListener("load", restore);

  // What the scorer touched, per hand (its place: a whole-form redraw keeps it, a new hand not).
  const touched = new Map();
  let lastRows = [];
  function handForm() { return document.getElementById("hand-form"); }
  function placeOf(form) {
    const input = form && form.querySelector('input[name="position"]');
    return input ? input.value : "";
  }
  function touchedIn(form) {
    const key = placeOf(form);
    if (!touched.has(key)) touched.set(key, new Set());
    return touched.get(key);
  }
  function markTouched(el) {
    const form = el && el.closest && el.closest("#hand-form");
    if (form && el.name) touchedIn(form).add(el.name);
  }
  // Only a person's own input counts (isTrusted): what this script or app.js fills does not.
  document.addEventListener("input", function (e) { if (e.isTrusted) markTouched(e.target); }, true);
  document.addEventListener("change", function (e) { if (e.isTrusted) markTouched(e.target); }, true);
  // "Taşları say" on the scorer's form is the scorer's typing too.
  let countingRow = null;
  document.addEventListener("click", function (e) {
    if (!e.isTrusted || !e.target.closest) return;
    const open = e.target.closest("#hand-form [data-count-tiles]");
    if (open) { countingRow = open.closest(".seat-row"); return; }
    if (e.target.closest("[data-count-done]") && countingRow) {
      const prefix = countingRow.id.replace("seat-", "p");
      const set = touchedIn(handForm());
      ["remaining", "okeys", "fake_okeys"].forEach(function (n) { set.add(prefix + "-" + n); });
      countingRow = null;
    }
  }, true);

  function fields(form, name) { return Array.from(form.querySelectorAll('[name="' + name + '"]')); }
  function valueOf(form, name) {
    const els = fields(form, name);
    if (!els.length) return undefined;
    if (els[0].type === "radio") {
      const checked = els.find(function (el) { return el.checked; });
      return checked ? checked.value : "";
    }
    if (els[0].type === "checkbox") return els[0].checked ? "on" : "";
    return els[0].value;
  }
  function setValue(form, name, value) {
    const els = fields(form, name);
    if (!els.length) return null;
    if (els[0].type === "radio") {
      const el = els.find(function (r) { return r.value === value; });
      if (el) el.checked = true;
      return el || null;
    }
    if (els[0].type === "checkbox") { els[0].checked = value === "on"; return els[0]; }
    els[0].value = value;
    return els[0];
  }
  function labelOf(form, name, value) {
    const els = fields(form, name);
    if (els.length && els[0].type === "radio") {
      const el = els.find(function (r) { return r.value === value; });
      const label = el && el.closest("label");
      return label ? label.textContent.trim() : value;
    }
    return value;
  }
  // The phone's row as the hand form's fields would hold it.
  // `holdsNone`: the finisher's row, or with teams whose partner writes 0 the partner's: the form
  // keeps no sum or okeys there (app.js clears them when the finisher is chosen; the server
  // refuses a sum there), whatever the phone wrote before it knew who finished.
  function wanted(row, holdsNone) {
    const p = "p" + row.seat + "-";
    const values = {};
    const none = holdsNone || row.remaining === null || row.remaining === undefined;
    values[p + "opened"] = row.opened || "no";
    values[p + "remaining"] = none ? "" : String(row.remaining);
    values[p + "okeys"] = String(holdsNone ? 0 : row.okeys || 0);
    values[p + "fake_okeys"] = String(holdsNone ? 0 : row.fake_okeys || 0);
    if ("opening" in row) values[p + "opening"] = row.opening === null ? "" : String(row.opening);
    if ("cifte_devam" in row) values[p + "cifte_devam"] = row.cifte_devam ? "on" : "";
    if (row.finished) values.finisher = String(row.seat);
    return values;
  }

  function apply(rows) {
    const form = handForm();
    if (!form) return;
    // Every row is now in the form, or beside it where the scorer's own typing differs: the
    // save names them (a save that did not see a row the server holds is refused and shown it:
    // cetele/seats/arrivals.py).
    const box = document.getElementById("table-rows");
    const seen = form.querySelector('input[name="rows_seen"]');
    if (seen && box && placeOf(form) === box.dataset.position) seen.value = box.dataset.rowsSeen || "";
    const mine = touchedIn(form);
    const changed = [];
    // Who finished first: it decides which rows hold no tiles.
    rows.forEach(function (row) {
      const chosen = form.querySelector('input[name="finisher"][value="' + row.seat + '"]');
      if (!chosen || mine.has("finisher")) return;
      if (row.finished && !chosen.checked) {
        chosen.checked = true;
        chosen.dataset.fromPhone = "1";
        changed.push(chosen);
      } else if (!row.finished && chosen.checked && chosen.dataset.fromPhone) {
        // "Bitirdim" taken back on the phone: a finisher this script chose is chosen no more.
        chosen.checked = false;
        delete chosen.dataset.fromPhone;
        changed.push(chosen);
      }
    });
    const holdsNoTiles = tilesHeldNowhere(form);
    rows.forEach(function (row) {
      const seatRow = form.querySelector("#seat-" + row.seat);
      if (!seatRow) return;
      const holdsNone = holdsNoTiles(row.seat);
      const values = wanted(row, holdsNone);
      Object.keys(values).forEach(function (name) {
        const now = valueOf(form, name);
        if (now === undefined || now === values[name] || mine.has(name)) return;
        const el = setValue(form, name, values[name]);
        if (el && name === "finisher") el.dataset.fromPhone = "1";
        if (el) changed.push(el);
      });
    });
    // The finisher first (app.js collapses that row), then one change for the preview.
    changed.sort(function (a, b) { return (b.name === "finisher") - (a.name === "finisher"); });
    changed.forEach(function (el) { el.dispatchEvent(new Event("change", { bubbles: true })); });
    compare(rows);
  }

  // Which seats the form keeps no sum or okeys for, as it stands: the finisher's, and with teams
  // whose partner writes 0 the finisher's partner's (app.js clears them; the server refuses a
  // sum there).
  function tilesHeldNowhere(form) {
    const finisher = valueOf(form, "finisher");
    const partnerZero = form.classList.contains("partner-zero") && /^\d+$/.test(finisher || "");
    return function (seat) {
      return finisher === String(seat) || (partnerZero && (Number(finisher) + 2) % 4 === seat);
    };
  }

  // What the form holds against each phone's row, said where the scorer reads it: beside the
  // seat's row of the form, and in the list of the phones' rows, whose ✓ (drawn by the server,
  // the same for every page: cetele/live/rows.py) says a row is in the form. Where the form
  // holds something else (the scorer typed over it, or before it came) the list says what the
  // form holds instead, until the scorer takes the phone's. Asked again at every change of the
  // form, not only when rows come: typing over a row that came before changes nothing else.
  function compare(rows) {
    const form = handForm();
    if (!form) return;
    const holdsNoTiles = tilesHeldNowhere(form);
    rows.forEach(function (row) {
      const seatRow = form.querySelector("#seat-" + row.seat);
      if (!seatRow) return;
      const holdsNone = holdsNoTiles(row.seat);
      const values = wanted(row, holdsNone);
      const differ = Object.keys(values).filter(function (name) {
        const now = valueOf(form, name);
        return now !== undefined && now !== values[name];
      });
      note(form, seatRow, row, differ, values);
      // A row the form holds no tiles for (its player finished, or with teams is the
      // finisher's partner) while the phone wrote some: the list says so too.
      const tiles = (row.remaining !== null && row.remaining !== undefined) || row.okeys || row.fake_okeys;
      listed(form, row, holdsNone && tiles && !row.finished ? differ.concat("none") : differ);
    });
  }
  function listed(form, row, differ) {
    const box = document.getElementById("table-rows");
    const li = box && box.querySelector('li[data-seat="' + row.seat + '"][data-row]');
    if (!li) return;
    const held = li.querySelector("[data-form-holds]");
    if (held) held.remove();
    const mark = li.querySelector(".mark");
    li.classList.toggle("differs", differ.length > 0); // still "written": the row came
    if (mark) mark.textContent = differ.length ? "≠" : "✓";
    if (!differ.length) return;
    const span = document.createElement("span");
    span.setAttribute("data-form-holds", "");
    // No colon: the line already has one ("Can: Can yazdı — …").
    const words = differ.map(function (name) { return formsWords(form, name, row); }).join(", ");
    span.textContent = " · " + (box.dataset.formHolds || "{values}").replace("{values}", words);
    li.append(span);
  }
  // A field's value in the form as the list writes values: a label, a number, "—" for none.
  function formsWords(form, name, row) {
    const now = valueOf(form, name) || "";
    if (name === "none") {
      const box = document.getElementById("table-rows");
      const finished = valueOf(form, "finisher") === String(row.seat);
      const partner = form.querySelector("#seat-" + row.seat + " .partner-note");
      if (!finished && partner) return partner.textContent.trim(); // "eşi bitirdi · 0"
      return (box.dataset.finisher || "{name}").replace("{name}", row.name);
    }
    if (name === "finisher") {
      const chosen = form.querySelector('input[name="finisher"]:checked');
      const seat = chosen && chosen.closest(".seat-row");
      const who = seat && seat.querySelector(".seat-name");
      const box = document.getElementById("table-rows");
      return who ? (box.dataset.finisher || "{name}").replace("{name}", who.textContent.trim()) : "—";
    }
    if (name.endsWith("-okeys") || name.endsWith("-fake_okeys")) {
      const label = form.querySelector("#p" + row.seat + (name.endsWith("-okeys") ? "-okeys-label" : "-fake-label"));
      return (label ? label.textContent.trim() + " " : "") + (now || "0");
    }
    return now === "" ? "—" : labelOf(form, name, now);
  }
  let comparing = 0;
  function compareSoon(e) {
    if (!e.isTrusted || !e.target.closest || !e.target.closest("#hand-form")) return;
    // After every listener of this event (app.js clears a finisher's row on "change").
    clearTimeout(comparing);
    comparing = setTimeout(function () { compare(lastRows); }, 0);
  }
  document.addEventListener("input", compareSoon);
  document.addEventListener("change", compareSoon);

  function note(form, seatRow, row, differ, values) {
    let el = seatRow.querySelector("[data-phone-note]");
    if (!el) {
      el = document.createElement("p");
      el.className = "phone-note small";
      el.setAttribute("data-phone-note", "");
      seatRow.querySelector(".row-top").after(el);
    }
    // The same note as shown: kept, button and all. Drawn again at each rows' answer and each
    // field left, its button was replaced under a tap on it (between the press and the release,
    // the field's "change" redraws it): that tap was lost.
    const same = JSON.stringify([row.name, differ, differ.map(function (name) { return values[name]; })]);
    if (el.dataset.noteOf === same) return;
    el.dataset.noteOf = same;
    const box = document.getElementById("table-rows");
    el.textContent = (box && box.dataset.wrote ? box.dataset.wrote : "{name}").replace("{name}", row.name);
    if (!differ.length) return;
    const shown = differ.map(function (name) {
      return name === "finisher" ? (box ? box.dataset.finished : "✓") : labelOf(form, name, values[name]);
    });
    el.append(" · " + (box ? box.dataset.phoneSays : "") + " " + shown.join(" · ") + " ");
    const take = document.createElement("button");
    take.type = "button";
    take.className = "button small";
    take.textContent = box ? box.dataset.take : "✓";
    take.addEventListener("click", function () {
      const mine = touchedIn(form);
      let last = null;
      differ.forEach(function (name) {
        mine.delete(name); // the phone's value now, and the phone's again if it changes
        const changed = setValue(form, name, values[name]);
        if (changed) { changed.dispatchEvent(new Event("change", { bubbles: true })); last = changed; }
      });
      if (last) compare(lastRows);
    });
    el.append(take);
  }

  // The scorer chose who finished: the rows that now hold no tiles, and those that hold them
  // again, follow (after app.js has cleared the finisher's rows).
  document.addEventListener("change", function (e) {
    if (e.isTrusted && e.target.name === "finisher" && e.target.closest("#hand-form")) {
      setTimeout(function () { apply(lastRows); }, 0);
    }
  });
  // The hand form's previews come from two queues, the typing's and the gösterge's taps
  // (_hand_form.html: the chips ask only on this page): an answer to a preview asked before the
  // one shown is not shown over it (it would show the hand as it was before the tap, until the
  // next preview). Told where the request came from (the form, the chips): the preview it was
  // asked for may have left the page.
  let previewsAsked = 0;
  let previewShown = 0;
  document.addEventListener("htmx:beforeSend", function (event) {
    const target = event.detail.target;
    if (target && target.id === "hand-preview") event.detail.xhr.ceteleAsked = ++previewsAsked;
  });
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const asked = event.detail.xhr && event.detail.xhr.ceteleAsked;
    if (!asked) return;
    if (asked < previewShown) event.preventDefault();
    else previewShown = asked;
  });
  // The gösterge a phone set (or the scorer, from another tap): kept for every phone, so the
  // form takes the one kept last. Only a change of the kept one is taken (the picker remembers
  // the one it was drawn or last filled with): an answer that left before the scorer's own tap
  // was kept brings the older one, unchanged, and is not taken over the tap.
  // Nor while the scorer's own taps on it are on their way, nor from rows asked for before the
  // last of them was answered: the one kept then may be an earlier tap's (the colour before
  // its number), and taking it would undo the scorer's last tap on the form.
  let rowsAskedAt = 0;
  let tapAnsweredAt = 0;
  document.addEventListener("htmx:beforeSend", function (event) {
    const el = event.detail.elt;
    if (el && el.matches && el.matches("[data-table-rows]")) rowsAskedAt = performance.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const el = event.detail.elt;
    if (el && el.matches && el.matches("[data-stored-indicator]")) tapAnsweredAt = performance.now();
  });
  function applyIndicator(box, form) {
    const picker = form && form.querySelector("[data-stored-indicator]");
    const kept = box.dataset.indicator;
    if (!picker || !kept || placeOf(form) !== box.dataset.position) return;
    if (kept === picker.dataset.storedIndicator) return;
    if (picker.classList.contains("htmx-request") || rowsAskedAt < tapAnsweredAt) return;
    picker.dataset.storedIndicator = kept;
    const values = JSON.parse(kept);
    picker.querySelectorAll('input[name="colour"]').forEach(function (el) {
      el.checked = el.value === values.colour;
    });
    picker.querySelectorAll('input[name="indicator"]').forEach(function (el) {
      el.checked = el.value === String(values.indicator);
    });
    const fake = picker.querySelector('input[name="riziko"]');
    if (fake) fake.checked = Boolean(values.riziko);
    // On the form itself: the preview is asked again; the picker (which keeps a tap) is not.
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function rowsIn(box) {
    return Array.from(box.querySelectorAll("[data-row]")).map(function (li) {
      return JSON.parse(li.dataset.row);
    });
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    const target = event.detail.elt;
    const box = document.getElementById("table-rows");
    if (!box || box.dataset.tableRows !== "edit") return;
    const form = handForm();
    if (target === box || (target && target.id === "table-rows")) {
      // Rows for another hand than the form's (the form is older): not applied.
      lastRows = form && placeOf(form) === box.dataset.position ? rowsIn(box) : [];
      apply(lastRows);
      applyIndicator(box, form);
    } else if (target && target.id === "hand-form") {
      // A refused save's form has newer rows than this section (it names other ones): they are
      // in it already, and the section, asked for at once, brings them ("cetele:rows-now").
      const seen = form && form.querySelector('input[name="rows_seen"]');
      const newer = seen && seen.value !== (box.dataset.rowsSeen || "");
      if (form && placeOf(form) === box.dataset.position && !newer) apply(lastRows);
    }
  });
})();
