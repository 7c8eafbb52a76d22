// Çetele's service worker, served at /sw.js by cetele/shell/installable.py, which puts ASSETS (the
// static files' URLs) and VERSION above this text.
//
// What it keeps, on this phone only (the Cache API is the phone's own storage and ignores
// HTTP caching headers: an edit page's `no-store` keeps it out of shared caches, not out of
// this one, on purpose):
// - the static files, cache first (their names change with their contents);
// - the last copy of the home page and of each match page this phone opened — through the
//   edit, the view or the join link (/m/, /v/, /k/: a joined phone's page is its own, drawn for
//   the seat its cookie holds) — and of the match's pages to read (history, a hand's reasons,
//   the rules: READ), network first: without a connection the copy is shown, marked
//   `data-offline` on <body>, which shows "Bağlantı yok — çetele en son böyleydi" (base.html)
//   and tells offline.js the page is not live.
// A link that answers "changed" (410) or a match page that is gone (404) drops every copy under
// that link, a page that is gone (a hand deleted) its own. The page's own requests (polls,
// previews, saves) never pass the worker (below); when one says the link changed or the match is
// gone, offline.js asks the worker to fetch the page, whose answer drops the copies. What a copy
// lets a phone do offline is judged by the server when sent.
// Hands saved offline are offline.js's, a joined phone's row and gösterge seats.js's, not ours.
"use strict";

const STATIC_CACHE = "cetele-static-" + VERSION;
const PAGES = "cetele-pages"; // kept across versions: the copies outlive a release
const OUTBOX = "cetele-outbox"; // offline.js's copy of its outbox, for Background Sync
const OUTBOX_KEY = "/outbox.json";
const PAGE = /^\/(?:[mvk]\/[A-Za-z0-9_-]{22,64}\/)?$/;
const UNDER_LINK = /^(\/[mvk]\/[A-Za-z0-9_-]{22,64}\/)(.*)$/;
// (The join link has no history page.)
const READ = /^\/(?:[mv]\/[A-Za-z0-9_-]{22,64}\/gecmis\/|[mvk]\/[A-Za-z0-9_-]{22,64}\/(?:kurallar\/|el\/\d+\/))$/;

// Straight to the network, never waking the worker (a poll every few seconds, on the phone's
// battery): every POST and script's request (Static Routing API; elsewhere the handler passes).
const STRAIGHT_TO_THE_NETWORK = [
  { condition: { requestMethod: "POST" }, source: "network" },
  { condition: { requestMode: "cors" }, source: "network" },
];

self.addEventListener("install", function (event) {
  const routed = event.addRoutes
    ? event.addRoutes(STRAIGHT_TO_THE_NETWORK).catch(function () { /* the handler lets them pass */ })
    : Promise.resolve();
  event.waitUntil(
    routed
      .then(function () { return caches.open(STATIC_CACHE); })
      .then(function (cache) { return cache.addAll(ASSETS); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (keys) {
        return Promise.all(keys.filter(function (key) {
          return key.indexOf("cetele-static-") === 0 && key !== STATIC_CACHE;
        }).map(function (key) { return caches.delete(key); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && (PAGE.test(url.pathname) || READ.test(url.pathname))) {
    event.respondWith(networkFirst(request, url));
  }
});

async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(STATIC_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request, url) {
  const key = url.origin + url.pathname;
  const pages = await caches.open(PAGES);
  let response;
  try {
    response = await fetch(request);
  } catch (err) {
    const copy = (await pages.match(key, { ignoreVary: true })) ||
      (await pages.match(url.origin + "/", { ignoreVary: true })); // at least "Maçlarım"
    if (!copy) throw err;
    return markedCopy(copy);
  }
  if (response.status === 200 && !url.search) await keep(key, response.clone());
  else if (response.status === 404 || response.status === 410) await drop(url, response.status);
  return response;
}

// offline.js asks for a fresh copy of its page after a save or a change the poll brought; a
// page's script (seats.js) for the static files a copy of that page needs, kept beside ASSETS.
self.addEventListener("message", function (event) {
  const assets = event.data && event.data.assets;
  if (Array.isArray(assets)) {
    const ours = assets.filter(function (url) {
      return typeof url === "string" && new URL(url, self.location.origin).origin === self.location.origin &&
        new URL(url, self.location.origin).pathname.indexOf("/static/") === 0;
    });
    event.waitUntil(caches.open(STATIC_CACHE).then(function (cache) {
      return Promise.all(ours.map(function (url) {
        return cache.match(url).then(function (kept) { return kept || cache.add(url); });
      }));
    }).catch(function () { /* offline or full: the page still works online */ }));
    return;
  }
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !PAGE.test(path)) return;
  const key = self.location.origin + path;
  event.waitUntil(fetch(key).then(function (response) {
    if (response.status === 200) return keep(key, response);
    if (response.status === 404 || response.status === 410) return drop(new URL(key), response.status);
  }).catch(function () { /* offline: the copy stays as it was */ }));
});

// Copies are written one at a time and never go back in time: an answer that left the server
// before a save but arrives after it must not replace the newer copy (the match's version is
// in the sheet's poll URL).
let keeping = Promise.resolve();
function keep(key, response) {
  keeping = keeping.then(async function () {
    const pages = await caches.open(PAGES);
    const old = await pages.match(key, { ignoreVary: true });
    if (old && version(await old.text()) > version(await response.clone().text())) return;
    await pages.put(key, response);
  }).catch(function () { /* storage full: the older copy stays */ });
  return keeping;
}
function version(html) {
  const found = /\/poll\/\?v=(\d+)/.exec(html);
  return found ? Number(found[1]) : -1;
}

// A changed or deleted link (410) or match (its page 404) takes every copy under the link with
// it; any other page that is gone (404: a hand deleted), its own copy.
async function drop(url, status) {
  const pages = await caches.open(PAGES);
  const parts = UNDER_LINK.exec(url.pathname);
  const whole = parts && (status !== 404 || parts[2] === "");
  if (!whole) return pages.delete(url.origin + url.pathname);
  const copies = await pages.keys();
  await Promise.all(copies.filter(function (copy) {
    return new URL(copy.url).pathname.indexOf(parts[1]) === 0;
  }).map(function (copy) { return pages.delete(copy); }));
}

async function markedCopy(copy) {
  const html = (await copy.text()).replace("<body", "<body data-offline");
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers: headers });
}

// Background Sync: when the connection returns the browser wakes this worker, even with every
// tab closed, and it sends the hands waiting in offline.js's outbox (a copy of which offline.js
// keeps in the Cache API, the one store both can reach). The server answers a hand it already
// has "already saved", so a hand sent both from here and from a page is saved once; whatever
// the server asks about (a place taken, a match over) is left to the page, and so are the match's
// later hands. The page drops what went through at its next look (the same answer, by token).
self.addEventListener("sync", function (event) {
  if (event.tag === "cetele-outbox") event.waitUntil(sendWaiting());
});

async function sendWaiting() {
  const copy = await (await caches.open(OUTBOX)).match(OUTBOX_KEY);
  const list = copy ? await copy.json() : [];
  const stopped = {};
  for (const item of list) {
    if (stopped[item.key] || item.state) { stopped[item.key] = true; continue; }
    const response = await fetch(item.url, { // offline: throws, and the browser tries later
      method: "POST", body: new URLSearchParams(item.body),
      headers: { "HX-Request": "true", "HX-Target": "hand-form" },
    });
    if ((response.headers.get("HX-Trigger") || "").indexOf("cetele:hand-saved") < 0) {
      stopped[item.key] = true;
    }
  }
}
