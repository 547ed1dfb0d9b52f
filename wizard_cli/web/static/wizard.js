// wizard serve: keep the page up to date from the server's event stream (never by reloading),
// and, on the entry page, send bids, tricks and undo with the entry token.
//
// The server renders every board (the same templates as the first page); this script only
// swaps the newest one in when an event says the sheet changed, and posts what a button says.
"use strict";

(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const fragment = live.dataset.fragment;
  const base = live.dataset.base || "";  // a folder's game: /game/NAME (SPEC §9)
  let shown = Number(live.dataset.version);
  let loading = false;
  let wanted = shown;
  let dirty = false;  // the board is wanted again at the same version (a new sit-out choice)
  let outChosen = [];  // the entry page's sit-out choice for the round to come (SPEC §5)
  const fragmentUrl = () => (outChosen.length === 0 ? fragment : fragment + "?"
    + outChosen.map((name) => "out=" + encodeURIComponent(name)).join("&"));

  // --- the board, kept current ------------------------------------------------------------
  async function load(version) {
    wanted = Math.max(wanted, version);
    if (loading) return;
    loading = true;
    try {
      while (wanted !== shown || dirty) {
        dirty = false;
        const target = wanted;
        const response = await fetch(fragmentUrl(), { cache: "no-store" });
        if (!response.ok) break;
        const html = await response.text();
        keepTricksTyped(() => keepSeatForms(() => { live.innerHTML = html; }));
        const board = live.querySelector(".live-board");
        shown = board ? Number(board.dataset.version) : target;
        if (shown < target) shown = target;
      }
    } catch (error) {
      // the connection dropped: the event stream reconnects and asks again
    } finally {
      loading = false;
    }
  }

  const connection = document.getElementById("connection");
  let events = null;
  function listen() {
    events = new EventSource(base + "/events");
    const changed = (event) => {
      const data = JSON.parse(event.data);
      if (data.version !== shown) load(data.version);
    };
    events.addEventListener("update", changed);
    events.addEventListener("problems", changed);
    events.addEventListener("open", () => { if (connection) connection.hidden = true; });
    events.addEventListener("error", () => { if (connection) connection.hidden = false; });
  }
  listen();
  window.addEventListener("pagehide", () => events && events.close());

  // --- the entry page ---------------------------------------------------------------------
  if (fragment !== base + "/enter/board") return;

  const KEY = "wizard-entry-token";
  const params = new URLSearchParams(window.location.search);
  if (params.has("token")) {
    try { window.localStorage.setItem(KEY, params.get("token")); } catch (error) { /* private mode */ }
    window.history.replaceState(null, "", window.location.pathname);  // out of the address bar
  }
  let remembered = params.get("token") || "";
  try { remembered = window.localStorage.getItem(KEY) || remembered; } catch (error) { /* none */ }
  const token = remembered;
  const noToken = document.getElementById("no-token");
  if (noToken) noToken.hidden = token !== "";

  const message = document.getElementById("message");
  // The page's sentences in its language (enter.html's data-say-*); {reason} is the server's.
  const words = live.dataset;
  const phrase = (text, reason) => text.replace("{reason}", reason);
  function say(text, isError) {
    message.textContent = text;
    message.removeAttribute("lang");
    message.classList.toggle("error", Boolean(isError));
  }

  async function send(path, body) {
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
    if (response.ok) {
      if (path.endsWith("/api/bid")) outChosen = [];  // written with the round's first bid
      if (path.endsWith("/api/join")) {  // the name typed is done with
        const joined = live.querySelector("form[data-action='join']");
        if (joined) { joined.reset(); startNumber(joined); }
      }
      const note = data.message && data.message !== "recorded";  // the engine's note: English
      say(note ? data.message : words.sayRecorded, false);
      if (note) message.lang = "en";
    } else if (response.status === 409) {
      say(phrase(words.sayStale, data.error), true);
    } else if (response.status === 403) {
      say(phrase(words.sayNotAllowed, data.error), true);
    } else {
      say(phrase(words.sayNotRecorded, data.error || response.statusText), true);
    }
    if (data.game && typeof data.game.version === "number") load(data.game.version);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || button.disabled) return;
    const round = Number(button.dataset.round);
    if (button.dataset.action === "bid") {
      const body = { round, player: button.dataset.player, bid: Number(button.dataset.bid) };
      if (outChosen.length && live.querySelector("input[data-out]")) body.out = outChosen;
      send(base + "/api/bid", body);
    } else if (button.dataset.action === "undo") {
      // The version of the game this page shows: if the sheet has changed since (a double
      // tap, another phone), the server refuses with 409 rather than take back another step.
      const board = button.closest(".live-board");
      send(base + "/api/undo", { round, version: board ? Number(board.dataset.version) : shown });
    }
  });

  // Join, leave and sit out (SPEC §5): who sits out is sent with the round's first bid; the
  // board is asked for again meanwhile, showing the round as it would then be dealt.
  const startNumber = (form) => {  // the number field shown only for "this number"
    const label = form && form.querySelector("[data-start-number]");
    if (label) label.hidden = form.elements.start.value !== "number";
  };
  document.addEventListener("change", (event) => {
    if (event.target.name === "start") startNumber(event.target.form);
    if (!event.target.matches("input[data-out]")) return;
    outChosen = Array.from(live.querySelectorAll("input[data-out]"))
      .filter((box) => box.checked).map((box) => box.value);
    dirty = true;
    load(shown);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-action='join'], form[data-action='leave']");
    if (!form) return;
    event.preventDefault();
    const board = form.closest(".live-board");
    const body = { player: form.elements.player.value,
                   version: board ? Number(board.dataset.version) : shown };
    if (form.dataset.action === "join") {
      body.after = form.elements.after.value;
      const start = form.elements.start.value;
      body.startScore = start === "number" ? Number(form.elements.score.value)
        : start === "0" ? 0 : start;
    }
    send(base + "/api/" + form.dataset.action, body);
  });

  // A board swapped in keeps what was typed into its join form, and the choice of who leaves.
  function keepSeatForms(swap) {
    const kept = {};
    for (const form of live.querySelectorAll("form.seat-form")) {
      for (const field of form.elements) {
        if (field.name) kept[form.dataset.action + "." + field.name] = field.value;
      }
    }
    const focused = document.activeElement && document.activeElement.name
      && document.activeElement.closest("form.seat-form")
      ? document.activeElement.closest("form.seat-form").dataset.action + "."
        + document.activeElement.name : null;
    swap();
    for (const form of live.querySelectorAll("form.seat-form")) {
      for (const field of form.elements) {
        const key = form.dataset.action + "." + field.name;
        if (!field.name || !(key in kept)) continue;
        if (field.tagName !== "SELECT"
            || Array.from(field.options).some((option) => option.value === kept[key])) {
          field.value = kept[key];
        }
        if (key === focused) field.focus();
      }
    }
    startNumber(live.querySelector("form[data-action='join']"));
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-action='tricks']");
    if (!form) return;
    event.preventDefault();
    const tricks = {};
    for (const input of form.querySelectorAll("input[data-player]")) {
      tricks[input.dataset.player] = Number(input.value);
    }
    const body = { round: Number(form.dataset.round), tricks };
    const bomb = form.querySelector("input[data-bomb]");  // specialCards: the Bomb and the Cloud
    if (bomb && bomb.checked) body.bomb = true;
    const cloud = form.querySelector("select[data-cloud-player]");
    if (cloud && cloud.value) {
      body.cloud = { [cloud.value]: Number(form.querySelector("select[data-cloud-change]").value) };
    }
    send(base + "/api/tricks", body);
  });

  // The last player's tricks are offered as the rest of the hand once the others are in.
  document.addEventListener("input", (event) => {
    const form = event.target.closest("form[data-action='tricks']");
    if (!form) return;
    const inputs = Array.from(form.querySelectorAll("input[data-player]"));
    const last = inputs[inputs.length - 1];
    if (event.target === last) { last.dataset.typed = "1"; return; }
    if (last.dataset.typed) return;
    const others = inputs.slice(0, -1);
    if (others.some((input) => input.value === "")) { last.value = ""; return; }
    const bomb = form.querySelector("input[data-bomb]");  // nobody takes the Bomb's trick
    const rest = Number(form.dataset.handSize) - (bomb && bomb.checked ? 1 : 0)
      - others.reduce((sum, input) => sum + Number(input.value), 0);
    last.value = rest >= 0 ? String(rest) : "";
  });
  document.addEventListener("input", (event) => {
    const form = event.target.closest("form[data-action='tricks']");
    if (form) tally(form);
  });

  // Tricks by tapping (SPEC §9): a button sets the player's field (as typing would); the
  // buttons then show the chosen one pressed, how many tricks are left to give, and never let
  // the total pass the hand size (a value above what is left to this player is disabled).
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-trick-for]");
    if (!button || button.disabled) return;
    const form = button.closest("form[data-action='tricks']");
    const input = Array.from(form.querySelectorAll("input[data-player]"))
      .find((field) => field.dataset.player === button.dataset.trickFor);
    if (!input) return;
    input.value = button.dataset.value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  function tally(form) {
    const hand = Number(form.dataset.handSize);
    const inputs = Array.from(form.querySelectorAll("input[data-player]"));
    const chosen = (input) => (input.value === "" ? 0 : Number(input.value));
    const given = inputs.reduce((sum, input) => sum + chosen(input), 0);
    for (const input of inputs) {
      const open = hand - (given - chosen(input));  // the most this player can still take
      for (const button of form.querySelectorAll("button[data-trick-for]")) {
        if (button.dataset.trickFor !== input.dataset.player) continue;
        button.disabled = Number(button.dataset.value) > open;
        button.setAttribute("aria-pressed", String(input.value === button.dataset.value));
      }
    }
    const left = form.querySelector("[data-left]");
    if (left) left.textContent = String(Math.max(hand - given, 0));
  }

  // A board swapped in while tricks are being typed keeps what was typed (same round only).
  function keepTricksTyped(swap) {
    const before = live.querySelector("form[data-action='tricks']");
    const typed = {};
    if (before) {
      for (const input of before.querySelectorAll("input[data-player]")) {
        typed[input.dataset.player] = [input.value, input.dataset.typed];
      }
    }
    const round = before && before.dataset.round;
    swap();
    const after = live.querySelector("form[data-action='tricks']");
    if (!after || after.dataset.round !== round) return;
    for (const input of after.querySelectorAll("input[data-player]")) {
      const kept = typed[input.dataset.player];
      if (kept) { input.value = kept[0]; if (kept[1]) input.dataset.typed = kept[1]; }
    }
    tally(after);
  }
})();

// --- share the result (SPEC §9): the Share button is shown only where the browser has the
// Web Share API; it hands the picture, the table and the spreadsheet to the share sheet (their
// address where files cannot be shared). Without the API the download links stay the way.
(function () {
  const button = document.getElementById("share");
  if (!button || typeof navigator.share !== "function") return;
  button.hidden = false;
  const kinds = [["game.svg", "image/svg+xml"], ["game.md", "text/markdown"],
                 ["game.csv", "text/csv"]];
  button.addEventListener("click", async () => {
    const title = document.title;
    try {
      const files = [];
      for (const [path, type] of kinds) {
        const answer = await fetch(path);
        if (!answer.ok) throw new Error(path + ": " + answer.status);
        const named = /filename="([^"]+)"/.exec(answer.headers.get("Content-Disposition") || "");
        files.push(new File([await answer.blob()], named ? named[1] : path, { type }));
      }
      if (navigator.canShare && navigator.canShare({ files })) {
        await navigator.share({ files, title });
      } else {
        await navigator.share({ title, url: new URL(".", location.href).href });
      }
    } catch (error) {
      if (error && error.name === "AbortError") return;  // the player closed the share sheet
      button.setCustomValidity && button.setCustomValidity("");
      button.title = String(error && error.message || error);
    }
  });
})();
