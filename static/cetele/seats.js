// The joined phones' rows (cetele/seats): the rows' poll pauses while the page is hidden or has no
// connection, and on the scorer's page each row a phone wrote is filled into the hand form. The
// scorer's own typing is never overwritten: a field the scorer has touched keeps its value, and
// where the phone's differs the row says so with one tap to take it. Without this script the
// scorer reads the rows in the list above the form and types them, as without phones.
(function () {
  "use strict";

  document.addEventListener("htmx:beforeRequest", function (event) {
    const el = event.detail.elt;
    // Not while hidden, nor without a connection (offline.js says so for the sheet).
    const idle = document.hidden || !navigator.onLine;
    if (el.matches && el.matches("[data-table-rows]") && idle) event.preventDefault();
  });

  // A row that could not be sent (no signal, the server down) is said so where the phone shows
  // what became of its row: it stays in the form, to be sent again.
  function notSent(event) {
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("#my-row form");
    const status = form && form.querySelector("#row-status");
    if (!status) return;
    status.textContent = status.dataset.notSent;
    status.className = "small message error";
  }
  document.addEventListener("htmx:sendError", notSent);
  document.addEventListener("htmx:responseError", notSent);

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
  function wanted(row) {
    const p = "p" + row.seat + "-";
    const values = {};
    values[p + "opened"] = row.opened || "no";
    values[p + "remaining"] = row.remaining === null || row.remaining === undefined ? "" : String(row.remaining);
    values[p + "okeys"] = String(row.okeys || 0);
    values[p + "fake_okeys"] = String(row.fake_okeys || 0);
    if ("opening" in row) values[p + "opening"] = row.opening === null ? "" : String(row.opening);
    if ("cifte_devam" in row) values[p + "cifte_devam"] = row.cifte_devam ? "on" : "";
    if (row.finished) values.finisher = String(row.seat);
    return values;
  }

  function apply(rows) {
    const form = handForm();
    if (!form) return;
    const mine = touchedIn(form);
    const changed = [];
    rows.forEach(function (row) {
      const seatRow = form.querySelector("#seat-" + row.seat);
      if (!seatRow) return;
      const values = wanted(row);
      const differ = [];
      // "Bitirdim" taken back on the phone: a finisher this script chose is chosen no more.
      const chosen = form.querySelector('input[name="finisher"][value="' + row.seat + '"]');
      if (!row.finished && chosen && chosen.checked && chosen.dataset.fromPhone && !mine.has("finisher")) {
        chosen.checked = false;
        delete chosen.dataset.fromPhone;
        changed.push(chosen);
      }
      Object.keys(values).forEach(function (name) {
        const now = valueOf(form, name);
        if (now === undefined || now === values[name]) return;
        if (mine.has(name)) differ.push(name);
        else {
          const el = setValue(form, name, values[name]);
          if (el && name === "finisher") el.dataset.fromPhone = "1";
          if (el) changed.push(el);
        }
      });
      note(form, seatRow, row, differ, values);
    });
    // The finisher first (app.js collapses that row), then one change for the preview.
    changed.sort(function (a, b) { return (b.name === "finisher") - (a.name === "finisher"); });
    changed.forEach(function (el) { el.dispatchEvent(new Event("change", { bubbles: true })); });
  }

  function note(form, seatRow, row, differ, values) {
    let el = seatRow.querySelector("[data-phone-note]");
    if (!el) {
      el = document.createElement("p");
      el.className = "phone-note small";
      el.setAttribute("data-phone-note", "");
      seatRow.querySelector(".row-top").after(el);
    }
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
      if (last) note(form, seatRow, row, [], values);
    });
    el.append(take);
  }

  // The gösterge a phone set (or the scorer, from another tap): kept for every phone, so the
  // form takes the one kept last. Only a change of the kept one is taken (the picker remembers
  // the one it was drawn or last filled with): an answer that left before the scorer's own tap
  // was kept brings the older one, unchanged, and is not taken over the tap.
  function applyIndicator(box, form) {
    const picker = form && form.querySelector("[data-stored-indicator]");
    const kept = box.dataset.indicator;
    if (!picker || !kept || placeOf(form) !== box.dataset.position) return;
    if (kept === picker.dataset.storedIndicator) return;
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
      if (form && placeOf(form) === box.dataset.position) apply(lastRows);
    }
  });
})();
