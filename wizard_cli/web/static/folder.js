// wizard serve DIR: the game night pages (SPEC §9 "Game night from the page"). Keeps the list
// of games current from the folder's event stream, keeps the entry token (from ?token= on any
// page), and sends New game and Next game as JSON with the token.
"use strict";

(function () {
  const KEY = "wizard-entry-token";  // the same key as wizard.js: one token for the folder
  const params = new URLSearchParams(window.location.search);
  if (params.has("token")) {
    try { window.localStorage.setItem(KEY, params.get("token")); } catch (error) { /* private */ }
    window.history.replaceState(null, "", window.location.pathname);
  }
  let token = params.get("token") || "";
  try { token = window.localStorage.getItem(KEY) || token; } catch (error) { /* none */ }
  const noToken = document.getElementById("no-token");
  if (noToken) noToken.hidden = token !== "";

  const message = document.getElementById("message");
  // The page's sentences in its language (folder_message.html's data-say-*).
  const words = message ? message.dataset : {};
  function say(text, isError) {
    if (!message) return;
    message.textContent = text;
    message.classList.toggle("error", Boolean(isError));
  }

  async function post(path, body) {
    say("…", false);
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Wizard-Token": token },
        body: JSON.stringify(body),
        cache: "no-store",
      });
    } catch (error) {
      say(words.sayUnreachable, true);
      return;
    }
    let data = {};
    try { data = await response.json(); } catch (error) { /* not JSON */ }
    if (response.status === 201 && data.url) {
      window.location.assign(data.url + "enter");
    } else {
      say(words.sayNotWritten.replace("{reason}", data.error || response.statusText), true);
    }
  }

  // --- the list, kept current -----------------------------------------------------------
  const live = document.getElementById("folder-live");
  if (live) {
    let shown = Number(live.dataset.version);
    let loading = false;
    const events = new EventSource("/events");
    const connection = document.getElementById("connection");
    events.addEventListener("update", async (event) => {
      const version = JSON.parse(event.data).version;
      if (version === shown || loading) return;
      loading = true;
      try {
        const response = await fetch(live.dataset.fragment, { cache: "no-store" });
        if (response.ok) {
          live.innerHTML = await response.text();
          const list = live.querySelector(".folder-list");
          shown = list ? Number(list.dataset.version) : version;
        }
      } catch (error) { /* the stream reconnects */ } finally { loading = false; }
    });
    events.addEventListener("open", () => { if (connection) connection.hidden = true; });
    events.addEventListener("error", () => { if (connection) connection.hidden = false; });
    window.addEventListener("pagehide", () => events.close());
  }

  // --- Next game (the list, a finished game's entry page) --------------------------------
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.next-game");
    if (!button) return;
    if (!message) {  // a game's entry page: its own message line
      const own = document.getElementById("message");
      if (own) own.textContent = "…";
    }
    post(button.dataset.next, {});
  });

  // --- New game --------------------------------------------------------------------------
  const form = document.getElementById("new-game");
  if (!form) return;
  const seating = document.getElementById("seating");
  const dealer = document.getElementById("first-dealer");
  const names = [];

  function draw() {
    seating.textContent = "";
    names.forEach((name, index) => {
      const item = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = name;
      item.appendChild(label);
      const says = seating.dataset;
      for (const [text, move, what] of [["↑", -1, says.sayUp], ["↓", 1, says.sayDown],
                                        ["✕", 0, says.sayRemove]]) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = text;
        button.setAttribute("aria-label", what.replace("{name}", name));
        button.dataset.index = String(index);
        button.dataset.move = String(move);
        button.disabled = (move === -1 && index === 0) || (move === 1 && index === names.length - 1);
        item.appendChild(button);
      }
      seating.appendChild(item);
    });
    const chosen = dealer.value;
    dealer.textContent = "";
    for (const name of names) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name;
      option.selected = name === chosen;
      dealer.appendChild(option);
    }
    for (const box of form.querySelectorAll("input[data-known]")) {
      box.checked = names.includes(box.value);
    }
  }

  function add(name) {
    name = name.trim();
    if (name !== "" && !names.includes(name)) names.push(name);
    draw();
  }

  form.addEventListener("change", (event) => {
    const box = event.target.closest("input[data-known]");
    if (!box) return;
    if (box.checked) add(box.value);
    else { names.splice(names.indexOf(box.value), 1); draw(); }
  });
  const input = document.getElementById("add-name");
  document.getElementById("add-player").addEventListener("click", () => {
    add(input.value);
    input.value = "";
    input.focus();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); add(input.value); input.value = ""; }
  });
  seating.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-index]");
    if (!button) return;
    const index = Number(button.dataset.index);
    const move = Number(button.dataset.move);
    if (move === 0) names.splice(index, 1);
    else [names[index], names[index + move]] = [names[index + move], names[index]];
    draw();
    const again = seating.querySelector(`button[data-index="${index + move}"][data-move="${move}"]`);
    if (again && !again.disabled) again.focus();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const settings = {};
    for (const select of form.querySelectorAll("select[data-setting]")) {
      if (select.value !== "") settings[select.dataset.setting] = select.value;
    }
    const value = (id) => document.getElementById(id).value;
    post("/api/games", {
      players: names, firstDealer: dealer.value || null, preset: value("preset") || null,
      settings, title: value("title"), date: value("date"), place: value("place"),
    });
  });
  draw();
})();
