// Without a connection: the service worker (sw.js), the "not live" mark, and the outbox that
// keeps a hand saved offline on this phone until the server has it. Loaded before app.js.
//
// Exactly once: a queued hand keeps the one-time request token it was (or would have been)
// sent with; when the first try reached the server and only the answer was lost, the retry is
// answered "already saved" and nothing new is saved (cetele/matches/views.py). Each hand also keeps
// the place it was entered as ("5. el"): if another phone saved that place meanwhile, the
// server answers with the form that asks, as when two phones enter the same hand.
(function () {
  "use strict";
  const OUTBOX = "cetele.outbox"; // localStorage: the outbox itself; Cache API: sw.js's copy
  const PAGES = "cetele-pages";
  const PAGE = /^\/(?:[mvk]\/[A-Za-z0-9_-]{22,64}\/)?$/; // sw.js keeps these pages
  const body = document.body;
  const script = document.currentScript;
  const onCopy = body.hasAttribute("data-offline"); // sw.js served its last copy
  // CETELE_UNANSWERED_SECONDS, for seats.js and tea.js too.
  window.ceteleUnansweredMs = Number(document.querySelector("meta[name=cetele-unanswered-ms]").content);

  function setLive(live) {
    if (live) body.removeAttribute("data-offline");
    else body.setAttribute("data-offline", "");
  }

  // --- The service worker and this page's copy ---------------------------------------------
  // The worker keeps a fresh copy of this page (it writes every copy, never an older one).
  function keepCopy() {
    if (!body.hasAttribute("data-offline")) askAboutCopy();
  }
  // The link changed or the match is gone (its poll 404): the worker asks for the page itself
  // (it never sees the page's own requests: sw.js), whose answer drops every copy under the link.
  function askAboutCopy() {
    if (!("serviceWorker" in navigator) || !PAGE.test(location.pathname)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ keep: location.pathname });
    });
  }
  document.addEventListener("cetele:link-changed", askAboutCopy);
  document.addEventListener("cetele:match-deleted", askAboutCopy);
  document.addEventListener("htmx:responseError", function (event) {
    const el = event.detail.elt;
    if (el.matches && el.matches("[data-poll]") && event.detail.xhr.status === 404) askAboutCopy();
  });
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    const controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" }).then(function () {
      if (!controlled) keepCopy(); // the worker did not see this page arrive
    }).catch(function () { /* no worker: the site works as before */ });
  }

  // --- The outbox ---------------------------------------------------------------------------
  function load() {
    try {
      const list = JSON.parse(localStorage.getItem(OUTBOX) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (err) { return []; }
  }
  function store(list) {
    localStorage.setItem(OUTBOX, JSON.stringify(list)); // may throw: full
    mirror(list);
  }
  // A copy for the worker (sw.js), which sends it by Background Sync when the connection
  // returns, even with every tab closed (Chromium browsers; elsewhere the next page sends it).
  function mirror(list) {
    if (!window.caches || !("serviceWorker" in navigator)) return;
    caches.open("cetele-outbox").then(function (cache) {
      return cache.put("/outbox.json", new Response(JSON.stringify(list)));
    }).then(function () {
      if (!list.some(function (item) { return !item.state; })) return;
      return navigator.serviceWorker.ready.then(function (registration) {
        if (registration.sync) return registration.sync.register("cetele-outbox");
      });
    }).catch(function () { /* no copy: pages still send it */ });
  }
  function update(token, change) {
    store(load().map(function (item) { return item.token === token ? change(item) : item; }));
  }
  function newToken() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function box() { return document.querySelector("[data-outbox]"); }
  function pageKey() { const b = box(); return b ? b.dataset.matchKey : null; }
  function handForm() {
    const form = document.getElementById("hand-form");
    return form && form.tagName === "FORM" && /\/el\/$/.test(form.getAttribute("action")) ? form : null;
  }
  function field(form, name) { return form.querySelector('input[name="' + name + '"]'); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  // The next hand's form always comes after this phone's waiting hands, and names its place.
  function placeForm(fresh) {
    const form = handForm();
    if (!form) return;
    const key = pageKey();
    const token = field(form, "request_token").value;
    // The server's form asking about a waiting hand keeps that hand's place.
    if (load().some(function (item) { return item.token === token; })) return;
    let place = Math.max(fresh || Number(field(form, "position").value) || 1, 1);
    load().forEach(function (item) {
      if (item.key === key && item.position >= place) place = item.position + 1;
    });
    field(form, "position").value = String(place);
    const title = form.querySelector("#entry-title");
    if (title && title.firstChild) title.firstChild.nodeValue = title.firstChild.nodeValue.replace(/\d+/, place);
  }

  // What is typed for the next hand outlives a reload (a pull to refresh at the table): kept
  // for this tab by page and place until the hand is saved or kept for sending. Not the
  // gösterge: the server keeps it for every phone (cetele.deal), and a kept one could undo
  // another phone's newer one.
  function draftKey(place) { return "cetele.draft:" + location.pathname + place; }
  function draft(place, data) { // read (data undefined), keep, or drop (null); never throws
    try {
      if (data === undefined) return sessionStorage.getItem(draftKey(place)) || "";
      if (data === null) sessionStorage.removeItem(draftKey(place));
      else sessionStorage.setItem(draftKey(place), data);
    } catch (err) { return ""; }
  }
  // A next hand half typed when a question takes its form comes back after the answer.
  let typedAt = null, bringBack = null;
  function keepDraft(event) {
    const form = handForm();
    if (!form || !form.contains(event.target)) return;
    const data = new URLSearchParams(new FormData(form));
    ["csrfmiddlewaretoken", "request_token", "position", "version", "indicator", "colour", "riziko",
      "okey_number"].forEach(function (n) { data.delete(n); });
    draft(field(form, "position").value, data);
  }
  document.addEventListener("input", keepDraft);
  document.addEventListener("change", keepDraft);
  function restoreDraft(form) {
    const changed = [];
    new URLSearchParams(draft(field(form, "position").value)).forEach(function (value, name) {
      form.querySelectorAll('[name="' + name + '"]:not([type=hidden])').forEach(function (el) {
        if (!/radio|checkbox/.test(el.type)) {
          if (el.value !== value) { el.value = value; changed.push(el); }
        } else if (el.value === value && !el.checked) { el.checked = true; changed.push(el); }
      });
    });
    changed.sort(function (a, b) { return (b.name === "finisher") - (a.name === "finisher"); });
    changed.forEach(function (el) { el.dispatchEvent(new Event("change", { bubbles: true })); });
  }

  // A save of the next hand: its button, in the new-hand form.
  function isSave(detail) {
    const elt = detail.elt;
    return elt && elt.name === "action" && (elt.value === "save" || elt.value === "save-next") &&
      handForm() && elt.form === handForm();
  }
  function queue(form, formData) {
    const data = new URLSearchParams();
    formData.forEach(function (value, name) { if (typeof value === "string") data.append(name, value); });
    // One token, one hand: the form the server sent to ask about a waiting hand carries that
    // hand's token, and saving it replaces the waiting hand (in its turn) with the answer given.
    // (A page shown from a copy got a fresh token first: a copy's may be spent.)
    const token = data.get("request_token") || newToken();
    data.set("request_token", token);
    const list = load();
    const known = list.find(function (item) { return item.token === token; });
    const finisher = form.querySelector('input[name$="finisher"]:checked');
    const row = finisher && finisher.closest(".seat-row");
    const b = box();
    const item = {
      token: token, key: pageKey(), url: form.getAttribute("action"), body: data.toString(),
      position: Number(data.get("position")) || 0, at: known ? known.at : Date.now(), state: "",
      who: row ? fill(b.dataset.finished, { name: row.querySelector(".seat-name").textContent }) :
        finisher ? b.dataset.nobody : "",
    };
    const kept = known ? list.map(function (i) { return i === known ? item : i; }) : list.concat([item]);
    try { store(kept); } catch (err) { return false; } // full: keep the form as typed
    draft(item.position, null);
    form.reset();
    field(form, "request_token").value = newToken();
    field(form, "position").value = String(item.position + 1);
    form.querySelectorAll("details.more[open]").forEach(function (d) { d.open = false; });
    const preview = form.querySelector("#hand-preview");
    if (preview) preview.textContent = b.dataset.noPreview; // not an empty box: why none comes
    placeForm();
    render();
    // The note in view was about the hand before (and its "Geri al"): now it is about this one.
    say(fill(b.dataset.kept, { n: item.position || "?" }));
    return true;
  }
  function say(text) {
    const note = document.getElementById("saved-note");
    if (!note) return;
    const message = document.createElement("div");
    message.className = "message";
    message.setAttribute("role", "status");
    message.appendChild(document.createElement("span")).textContent = text;
    note.replaceChildren(message);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const detail = event.detail;
    if (navigator.onLine) return;
    if (detail.elt && detail.elt.matches && detail.elt.matches("[data-poll]")) {
      event.preventDefault(); // no poll without a connection; the sheet is marked not live
      setLive(false);
    } else if (isSave(detail)) {
      event.preventDefault();
      if (queue(handForm(), detail.requestConfig.formData)) setLive(false);
    } else if (handForm() && detail.elt && handForm().contains(detail.elt)) {
      event.preventDefault(); // a preview needs the server; say why none comes
      const preview = document.getElementById("hand-preview");
      if (preview && box()) preview.textContent = box().dataset.noPreview;
    }
  });
  // A café's Wi-Fi can hang: a save unanswered in time is kept like one that failed.
  document.addEventListener("htmx:configRequest", function (event) {
    if (isSave(event.detail)) event.detail.timeout = window.ceteleUnansweredMs;
  });
  // The request left but no answer came (the network failed on the way, or on the way back:
  // then the server may have saved it; the same token makes the retry safe).
  function unanswered(event) {
    const detail = event.detail;
    setLive(false);
    if (isSave(detail) && queue(handForm(), detail.requestConfig.formData)) sendSoon(2000);
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:timeout", unanswered);
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return;
    // The poll's own element: once its answer has replaced it, htmx tells the nearest one left.
    const elt = (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
    if (elt && elt.matches && elt.matches("[data-poll]")) {
      setLive(true);
      if (xhr.status === 200) keepCopy(); // the sheet changed: refresh the copy
    }
    sendSoon();
  });
  // A hand saved (by a tap, or by the outbox): drop it from the outbox if it was there.
  document.addEventListener("cetele:hand-saved", function (event) {
    const form = handForm();
    if (form && field(form, "request_token").value === event.detail.token) {
      draft(field(form, "position").value, null);
    }
    const saved = load().find(function (item) { return item.token === event.detail.token; });
    bringBack = saved ? typedAt : null;
    typedAt = null;
    if (saved) done(saved, event.detail);
    keepCopy();
    sendSoon();
  });

  function done(item, saved) {
    // Its row stays in the sheet until the sheet is drawn with the hand itself.
    if (saved.number) landed.push(Object.assign({}, item, { position: saved.position, number: saved.number }));
    // My later hands move with this one if it was added at another place.
    const shift = saved.position && item.position ? saved.position - item.position : 0;
    store(load().filter(function (other) { return other.token !== item.token; }).map(function (other) {
      if (!shift || other.key !== item.key || other.at < item.at || !other.position) return other;
      const data = new URLSearchParams(other.body);
      other.position += shift;
      data.set("position", String(other.position));
      other.body = data.toString();
      return other;
    }));
  }

  function triggers(response) {
    try { return JSON.parse(response.headers.get("HX-Trigger") || "{}"); } catch (err) { return {}; }
  }
  function csrf() {
    try { return JSON.parse(body.getAttribute("hx-headers") || "{}")["x-csrftoken"]; } catch (err) { return null; }
  }

  // Send one waiting hand; "retry" stops the round (no connection, or not now).
  async function send(item, show) {
    const data = new URLSearchParams(item.body);
    const token = csrf();
    if (token) data.set("csrfmiddlewaretoken", token);
    let response;
    const hang = new AbortController();
    const timer = setTimeout(function () { hang.abort(); }, window.ceteleUnansweredMs);
    try {
      response = await fetch(item.url, {
        method: "POST", body: data, credentials: "same-origin", signal: hang.signal,
        headers: { "HX-Request": "true", "HX-Target": "hand-form" },
      });
    } catch (err) { return "retry"; } finally { clearTimeout(timer); }
    const events = triggers(response);
    if (events["cetele:hand-saved"]) {
      done(item, events["cetele:hand-saved"]);
      if (item.key === pageKey()) showSaved(await response.text(), events["cetele:hand-saved"]);
      return "sent";
    }
    if (response.status === 404 || response.status === 410) {
      update(item.token, function (i) { i.state = "gone"; return i; });
      return "next";
    }
    if (response.status !== 200 || events["cetele:save-failed"]) return "retry";
    // The server asks (the place was taken, the match is over, the hand needs fixing).
    update(item.token, function (i) { i.state = "ask"; return i; });
    if (item.key === pageKey() && (show || pristine())) ask(await response.text());
    return "next";
  }

  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }
  function put(fresh) {
    const old = fresh && document.getElementById(fresh.id);
    if (!old) return;
    const node = document.importNode(fresh, true);
    node.removeAttribute("hx-swap-oob");
    old.replaceWith(node);
    if (window.htmx) window.htmx.process(node);
  }
  function showSaved(html, saved) {
    const doc = parse(html);
    put(doc.getElementById("saved-note"));
    // The server may answer "already saved" (the worker's Background Sync, or a first try whose
    // answer was lost, got there first): for this phone, its hand got through.
    const text = document.querySelector("#saved-note .message span");
    if (text && saved.position && box()) text.textContent = fill(box().dataset.sent, { n: saved.position });
    setLive(true);
    pollNow(); // the answer has no sheet: ask for it, as a tapped save does (app.js)
    const fresh = doc.querySelector('#hand-form input[name="position"]');
    placeForm(fresh ? Number(fresh.value) : saved.position + 1);
  }
  function ask(html) {
    const form = parse(html).getElementById("hand-form");
    const now = handForm();
    if (!form || !now) return;
    const token = field(now, "request_token").value;
    if (!pristine() && !load().some(function (i) { return i.token === token; })) typedAt = field(now, "position").value;
    put(form);
    handForm().scrollIntoView({ block: "start" });
  }
  function pristine() {
    const form = handForm();
    return !form || !Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "radio" || el.type === "checkbox") return el.checked !== el.defaultChecked;
      return (el.type === "text" || el.type === "number") && el.value !== el.defaultValue;
    });
  }

  let sending = false;
  async function sendAll() {
    for (;;) {
      const list = load();
      // In the order entered; a match whose earlier hand waits for the player sends no more.
      const item = list.find(function (i) {
        return !i.state && !list.some(function (j) { return j.key === i.key && j.state && j.at < i.at; });
      });
      if (!item || (await send(item)) === "retry") return;
    }
  }
  async function sendWaiting() {
    if (sending || !navigator.onLine || !load().some(function (i) { return !i.state; })) return;
    sending = true;
    try {
      // One tab at a time (the token would keep a second sending harmless anyway).
      if (navigator.locks) await navigator.locks.request("cetele-outbox", sendAll);
      else await sendAll();
    } finally {
      sending = false;
      render();
    }
  }
  let soon = null;
  function sendSoon(delay) {
    if (soon) return;
    soon = setTimeout(function () { soon = null; sendWaiting(); }, delay || 300);
  }
  function pollNow() { document.dispatchEvent(new CustomEvent("cetele:poll-now")); }
  window.addEventListener("online", function () {
    sendSoon();
    if (!document.querySelector("[data-poll]")) { setLive(true); return; }
    pollNow(); // app.js asks at once; a poll that gets through marks the page live again
    // The first poll may still meet the network coming back: ask again while not live.
    let tries = 0;
    const again = setInterval(function () {
      if (!body.hasAttribute("data-offline") || !navigator.onLine || ++tries > 5) clearInterval(again);
      else pollNow();
    }, 3000);
  });
  window.addEventListener("offline", function () { setLive(false); });
  window.addEventListener("storage", function (event) { if (event.key === OUTBOX) render(); });
  setInterval(sendWaiting, 10000); // a café's Wi-Fi can be "online" and still carry nothing

  // --- This match's waiting hands, above its form ------------------------------------------
  function render() {
    const b = box();
    if (!b) return;
    const key = pageKey();
    const mine = load().filter(function (item) { return item.key === key; });
    const ul = b.querySelector("ul");
    ul.textContent = "";
    mine.forEach(function (item) {
      const li = document.createElement("li");
      const text = fill(b.dataset.hand, { n: item.position || "?" }) + (item.who ? " · " + item.who : "") +
        " — " + (item.state === "ask" ? b.dataset.ask : item.state === "gone" ? b.dataset.gone : b.dataset.waiting);
      li.appendChild(document.createTextNode(text));
      if (item.state) {
        [["show", b.dataset.showLabel], ["drop", b.dataset.dropLabel]].forEach(function (pair) {
          if (pair[0] === "show" && item.state !== "ask") return;
          const button = document.createElement("button");
          button.type = "button";
          button.className = "button small";
          button.dataset["outbox" + (pair[0] === "show" ? "Show" : "Drop")] = item.token;
          button.textContent = pair[1];
          li.appendChild(document.createTextNode(" "));
          li.appendChild(button);
        });
      }
      ul.appendChild(li);
    });
    b.classList.toggle("hidden", !mine.length);
    placeForm();
    drawPending();
  }

  // --- The same hands in the sheet, each where it will land --------------------------------
  let landed = []; // sent, with the hand's number: their rows wait for the sheet that has them
  function drawPending() {
    const b = box();
    const sheet = document.getElementById("sheet");
    if (!b || !sheet) return;
    const key = pageKey();
    landed = landed.filter(function (item) {
      return item.key === key && !sheet.querySelector('tr[data-hand="' + Number(item.number) + '"]');
    });
    const rows = landed.concat(load().filter(function (item) { return item.key === key && !item.state; }))
      .sort(function (x, y) { return x.position - y.position || x.at - y.at; });
    sheet.querySelectorAll("tr[data-pending]").forEach(function (tr) { tr.remove(); });
    if (!rows.length) return;
    let tbody = sheet.querySelector("table.sheet tbody");
    if (!tbody) { // no hand saved yet: a sheet of the waiting ones
      const wrap = document.createElement("div");
      wrap.className = "sheet-wrap";
      wrap.appendChild(document.createElement("table")).className = "sheet";
      tbody = wrap.firstChild.appendChild(document.createElement("tbody"));
      const standings = sheet.querySelector(".standings");
      sheet.insertBefore(wrap, standings ? standings.nextSibling : null);
    }
    const head = sheet.querySelector("table.sheet thead tr");
    rows.forEach(function (item) {
      const tr = document.createElement("tr");
      tr.className = "pending";
      tr.dataset.pending = item.token;
      const th = tr.appendChild(document.createElement("th"));
      th.scope = "row";
      th.textContent = item.position || "?";
      const td = tr.appendChild(document.createElement("td"));
      td.colSpan = head ? head.cells.length - 1 : 1;
      td.textContent = b.dataset.pending + (item.who ? " · " + item.who : "");
      // Before the saved hand now at its place, if any (positions count from 1).
      const saved = tbody.querySelectorAll("tr[data-hand], tr[data-pending]");
      tbody.insertBefore(tr, item.position ? saved[item.position - 1] || null : null);
    });
  }
  document.addEventListener("htmx:load", function (event) {
    const form = handForm();
    if (!bringBack || !form || !event.detail.elt.contains(form)) return;
    const to = field(form, "position").value, kept = draft(bringBack);
    if (kept && to !== bringBack && !draft(to)) { draft(to, kept); draft(bringBack, null); }
    bringBack = null;
    restoreDraft(form);
  });
  // A new drawing of the sheet (the poll) has none of this phone's rows.
  document.addEventListener("htmx:load", function (event) {
    if (event.detail.elt && event.detail.elt.id === "sheet") drawPending();
  });
  document.addEventListener("click", function (event) {
    const show = event.target.closest("[data-outbox-show]");
    const drop = event.target.closest("[data-outbox-drop]");
    const item = load().find(function (i) {
      return i.token === (show ? show.dataset.outboxShow : drop ? drop.dataset.outboxDrop : null);
    });
    if (!item) return;
    if (show) send(item, true).then(render);
    else if (window.confirm(box().dataset.dropConfirm)) {
      store(load().filter(function (i) { return i.token !== item.token; }));
      render();
      sendSoon();
    }
  });

  function init() {
    const form = handForm();
    const key = pageKey();
    if (form && key) {
      // A copy's form may carry a token its page already spent.
      if (onCopy) field(form, "request_token").value = newToken();
      // This match under a new link (the old one was changed): its waiting hands go there.
      const url = form.getAttribute("action");
      if (load().some(function (i) { return i.key === key && i.url !== url; })) {
        store(load().map(function (i) {
          if (i.key === key && i.url !== url) { i.url = url; if (i.state === "gone") i.state = ""; }
          return i;
        }));
      }
    }
    // A match or table just deleted on this phone: forget its copies and waiting hands
    // (before app.js drops it from "Maçlarım", whose entries name the pages).
    const forget = document.querySelector("[data-forget-match]");
    if (forget) {
      const keys = forget.dataset.forgetMatch.split(",");
      let known = [];
      try { known = JSON.parse(localStorage.getItem("cetele.matches") || "[]"); } catch (err) { known = []; }
      // Its page and every page under its links (history, hands, rules: sw.js READ).
      const links = known.filter(function (m) { return keys.indexOf(m.key) >= 0; }).map(function (m) {
        return new URL(m.url, location.href).pathname;
      });
      if (window.caches && links.length) caches.open(PAGES).then(function (cache) {
        return cache.keys().then(function (copies) {
          copies.forEach(function (copy) {
            const path = new URL(copy.url).pathname;
            if (links.some(function (link) { return path.indexOf(link) === 0; })) cache.delete(copy);
          });
        });
      });
      try { store(load().filter(function (i) { return keys.indexOf(i.key) < 0; })); } catch (err) { /* */ }
    }
    render();
    // Once htmx has taken the page in: the restored fields ask for their preview.
    if (form && key) document.addEventListener("htmx:load", function () { restoreDraft(form); }, { once: true });
    sendSoon();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
