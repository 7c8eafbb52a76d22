// Çetele's few behaviours that need JavaScript. Everything here is an enhancement:
// the pages work without it. No inline scripts anywhere (the CSP forbids them).
(function () {
  "use strict";

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

  // Live sheet ([data-poll], see match.html#sheet): htmx polls every few seconds; here we pause
  // it while the page is hidden, poll at once when it shows again, and stop for good when the
  // link no longer works (rotated), saying so instead of asking again and again.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const el = event.detail.elt;
    if (!el.matches || !el.matches("[data-poll]")) return;
    if (document.hidden || el.dataset.pollStopped) event.preventDefault();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    document.querySelectorAll("[data-poll]").forEach(function (el) {
      window.htmx.trigger(el, "visible-again");
    });
  });
  document.addEventListener("htmx:responseError", function (event) {
    const el = event.detail.elt;
    if (!el.matches || !el.matches("[data-poll]") || event.detail.xhr.status !== 404) return;
    el.dataset.pollStopped = "1";
    document.querySelectorAll("[data-link-gone]").forEach(function (note) {
      note.classList.remove("hidden");
    });
  });

  function init() {
    keepAwake();
    hideUnsupported(document);
    rememberMatch();
    listMatches();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  document.addEventListener("htmx:afterSettle", function (event) {
    hideUnsupported(event.target);
    rememberMatch();
  });
})();
