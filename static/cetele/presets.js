// House presets this phone made or opened, in localStorage only (like "Maçlarım"): listed on
// the rules page and offered first when starting a match. Nobody else's presets are ever listed.
// Only on the pages that use it (_rules_choice.html, rules_list/detail/editor.html): a live
// table's pages, which every phone at the table loads, do without it (the page budget).
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
