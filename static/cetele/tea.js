// The tea tally's taps on a phone without signal (cetele/tea): a "+ çay" or "−" that cannot be
// sent waits on the phone and is sent when the connection is back, as a joined phone's row
// does (seats.js): kept in localStorage under the match's (or the table's) phone key and the
// tap's one-time id — never the link: a kept tap is sent only from a page whose card names its
// key, to the address that card gives. It is sent at the "online" event, after the next
// request that gets through, every 10 s, and when the page is opened again; the server's
// answer (the card, with what became of the tap) then replaces the card.
//
// Exactly once: every tap carries a one-time id (`tap`). A kept one is sent with `kept`: a
// kept "+" counts whatever the count is now (adding loses nobody's drink), and a resend whose
// first try was counted (only its answer was lost) is recognised by its id and counts nothing
// (cetele.tea.tally.apply). A kept "−" names the count it saw, less the "−" kept before it on
// that cell; a "−" tapped while a "+" of the same cell waits takes that "+" back on the phone.
// Two taps kept for the same cell are two drinks. Each waiting tap shows on its cell
// ("bekliyor"), and the cell's count shows it.
(function () {
  "use strict";
  // It comes with the card (templates/cetele/tea/_card.html), so every card swapped in brings
  // it again: once is enough.
  if (window.ceteleTea) return;
  window.ceteleTea = true;
  const PREFIX = "cetele.tea.";
  const FORM = "#tea form.tea-cell";

  function card() { return document.getElementById("tea"); }
  // The outboxes this page can send: the card's own, and on a table's page the table's (its
  // drinks at the table, which the server puts into the match being played).
  function outboxes() {
    const c = card();
    if (!c || !c.dataset.teaKey) return [];
    const list = [[c.dataset.teaKey, c.dataset.teaUrl]];
    if (c.dataset.teaTableKey && c.dataset.teaTableKey !== c.dataset.teaKey) {
      list.push([c.dataset.teaTableKey, c.dataset.teaTableUrl]);
    }
    return list;
  }
  function kept(key) { // this key's waiting taps, in the order tapped
    const found = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const name = localStorage.key(i);
        if (name.indexOf(PREFIX + key + ".") !== 0) continue;
        try {
          const item = JSON.parse(localStorage.getItem(name));
          if (item && typeof item.body === "string") { item.name = name; found.push(item); }
        } catch (err) { /* not ours */ }
      }
    } catch (err) { return []; }
    return found.sort(function (a, b) { return a.at - b.at; });
  }
  function forget(name) { try { localStorage.removeItem(name); } catch (err) { /* */ } }
  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["x-csrftoken"] || ""; } catch (err) { return ""; }
  }
  function isTap(elt) { return !!(elt && elt.matches && elt.matches(FORM)); }
  function cellOf(data) { return (data.get("seat") || data.get("place")) + "-" + data.get("item"); }

  function say(text, warning) {
    const c = card();
    if (!c || !text) return;
    let note = c.querySelector("[data-tea-note]");
    if (!note) {
      note = document.createElement("p");
      note.setAttribute("role", "status");
      note.setAttribute("data-tea-note", "");
      c.querySelector("h2").after(note);
    }
    note.className = warning ? "message warning" : "message";
    note.textContent = text;
  }

  // Keep a tap that could not be sent (or whose answer never came).
  function keep(form, sent) {
    const c = card();
    const key = c && c.dataset.teaKey;
    if (!key) return;
    const data = new URLSearchParams();
    sent.forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") data.set(name, value);
    });
    const cell = cellOf(data);
    const others = kept(key).filter(function (item) { return item.cell === cell; });
    if (data.get("action") === "remove") {
      const added = others.filter(function (item) { return item.action === "add"; }).pop();
      if (added) { forget(added.name); mark(); return; } // never sent: taken back here
      const removes = others.filter(function (item) { return item.action === "remove"; }).length;
      data.set("seen", String(Number(data.get("seen")) - removes));
    }
    if (!data.get("tap")) data.set("tap", newId());
    data.set("kept", "1");
    const item = { body: data.toString(), at: Date.now(), cell: cell, action: data.get("action") };
    try { localStorage.setItem(PREFIX + key + "." + data.get("tap"), JSON.stringify(item)); } catch (err) { return; }
    mark();
    say(c.dataset.teaKeptNote);
  }

  // Each cell with waiting taps: its count as the taps make it, and "bekliyor".
  function mark() {
    const c = card();
    if (!c || !c.dataset.teaKey) return;
    const waiting = {};
    kept(c.dataset.teaKey).forEach(function (item) {
      waiting[item.cell] = (waiting[item.cell] || 0) + (item.action === "add" ? 1 : -1);
    });
    const cells = kept(c.dataset.teaKey).map(function (item) { return item.cell; });
    c.querySelectorAll("form.tea-cell").forEach(function (form) {
      const cell = form.dataset.teaCell;
      const drawn = Number(form.querySelector('input[name="seen"]').value);
      const shown = drawn + (waiting[cell] || 0);
      const count = form.querySelector("[data-tea-count]");
      const undo = form.querySelector(".tea-undo");
      let label = form.querySelector("[data-tea-kept]");
      count.textContent = String(shown);
      if (undo) undo.disabled = shown <= 0;
      if (cells.indexOf(cell) === -1) { if (label) label.remove(); return; }
      if (!label) {
        label = document.createElement("small");
        label.className = "small muted";
        label.setAttribute("data-tea-kept", "");
        label.textContent = c.dataset.teaKeptWord;
        form.appendChild(label);
      }
    });
  }

  // Every tap names itself, so that a resend of it is recognised.
  document.addEventListener("htmx:configRequest", function (event) {
    if (isTap(event.detail.elt)) event.detail.parameters.tap = newId();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    const detail = event.detail;
    if (!isTap(detail.elt)) return;
    if (!navigator.onLine) {
      event.preventDefault();
      keep(detail.elt, detail.requestConfig.formData);
      return;
    }
    // A tap of a cell whose earlier taps still wait goes after them, kept too.
    if (kept(card().dataset.teaKey).length) {
      event.preventDefault();
      keep(detail.elt, detail.requestConfig.formData);
      sendKept();
    }
  });
  // The request left and no answer came, or the server failed: the tap waits.
  function unanswered(event) {
    const detail = event.detail;
    if (!isTap(detail.elt)) return;
    const xhr = detail.xhr;
    if (event.type === "htmx:responseError" && xhr && xhr.status < 500) return;
    keep(detail.elt, detail.requestConfig.formData);
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:timeout", unanswered);
  document.addEventListener("htmx:responseError", unanswered);
  // A hanging Wi-Fi: a tap unanswered in time (offline.js) is kept, not lost.
  document.addEventListener("htmx:configRequest", function (event) {
    if (isTap(event.detail.elt)) event.detail.timeout = window.ceteleUnansweredMs;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 500) setTimeout(sendKept, 0); // it is back
  });
  document.addEventListener("htmx:afterSettle", function () { if (card()) mark(); });

  // The card comes again with the sheet (out of band) at every change of the match, a tap of this
  // phone's too, which its stream tells it of at once (cetele/live/push.py). A card drawn at an
  // older version than the one shown (a sheet asked for before this phone's tap, answered after
  // the tap's own answer) is not put back. One at the same version says nothing of the tap: the
  // sentence of the last answer stays, so that a tap is not said and gone in the same moment.
  // (data-tea-version: "<match>:<its version>"; a table's page moves on to its next match.)
  function versionOf(c) {
    const parts = (c.dataset.teaVersion || "").split(":");
    return parts.length === 2 ? { match: parts[0], at: Number(parts[1]) } : null;
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const old = event.detail.target;
    const fresh = event.detail.fragment && event.detail.fragment.querySelector("#tea");
    if (!old || old.id !== "tea" || !fresh) return;
    const shown = versionOf(old), drawn = versionOf(fresh);
    if (!shown || !drawn || shown.match !== drawn.match) return;
    if (drawn.at < shown.at) { event.detail.shouldSwap = false; return; }
    const note = old.querySelector("[data-tea-note]");
    if (drawn.at === shown.at && note && !fresh.querySelector("[data-tea-note]")) {
      fresh.querySelector("h2").after(note.cloneNode(true));
    }
  });

  function put(html, notes) {
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("tea");
    const old = card();
    if (!fresh || !old) return;
    const own = fresh.querySelector("[data-tea-note]");
    if (own) own.remove();
    const heading = fresh.querySelector("h2");
    notes.slice().reverse().forEach(function (note) {
      const p = document.createElement("p");
      p.className = note.warning ? "message warning" : "message";
      p.setAttribute("role", "status");
      p.setAttribute("data-tea-note", "");
      p.textContent = note.text;
      heading.after(p);
    });
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    mark();
  }

  let sending = false;
  async function sendKept() {
    if (sending || !navigator.onLine) return;
    const boxes = outboxes();
    if (!boxes.some(function (box) { return kept(box[0]).length; })) return;
    sending = true;
    const notes = [];
    let last = null;
    try {
      for (const box of boxes) {
        for (const item of kept(box[0])) {
          let response;
          try {
            response = await fetch(box[1], {
              method: "POST", body: new URLSearchParams(item.body), credentials: "same-origin",
              headers: { "HX-Request": "true", "X-CSRFToken": csrf() },
              signal: AbortSignal.timeout ? AbortSignal.timeout(window.ceteleUnansweredMs) : undefined,
            });
          } catch (err) { return; } // still no signal: later
          if (response.status >= 500 || response.status === 429) return; // not now: later
          forget(item.name); // answered: what became of it is in the answer
          const html = await response.text();
          if (!response.ok) { notes.push({ text: card().dataset.teaRefused, warning: true }); continue; }
          last = html;
          const note = new DOMParser().parseFromString(html, "text/html").querySelector("[data-tea-note]");
          if (note) notes.push({ text: note.textContent.trim(), warning: note.classList.contains("warning") });
        }
      }
    } finally {
      sending = false;
      if (last) put(last, notes);
      else if (notes.length) notes.forEach(function (note) { say(note.text, note.warning); });
      mark();
    }
  }

  window.addEventListener("online", function () { sendKept(); });
  setInterval(sendKept, 10000);
  if (card()) { mark(); sendKept(); }
  // The scorer's page draws the card with htmx right after the page: then it is there.
  document.addEventListener("htmx:load", function (event) {
    if (event.detail.elt && event.detail.elt.id === "tea") { mark(); sendKept(); }
  });
})();
