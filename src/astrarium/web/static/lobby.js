// The lobby: my games (from this browser's storage), a new game, open public games.
import { api, el, forgetGame, myGames, rememberGame, seatName, tableLink } from "/static/common.js";

const state = { games: [], levels: [], lastTurn: {} };

function gameById(id) {
  return state.games.find((g) => g.id === id);
}

// -- new game -------------------------------------------------------------------
function fillGames() {
  const select = document.getElementById("game");
  select.replaceChildren(...state.games.map((g) => el("option", { value: g.id, text: g.title })));
  select.addEventListener("change", fillGame);
  fillGame();
}

function fillGame() {
  const game = gameById(document.getElementById("game").value);
  if (!game) return;
  const about = document.getElementById("game-about");
  const secrets = game.hidden.length ? "Hidden: " + game.hidden.join("; ") + "." : "Nothing is hidden.";
  about.replaceChildren(
    (game.cooperative ? "Cooperative. " : "") + secrets + " ",
    el("a", { href: "/api/games/" + encodeURIComponent(game.id) + "/rules", target: "_blank", rel: "noopener", text: "Rules" }),
  );
  const players = document.getElementById("players");
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  players.replaceChildren(...counts.map((n) => el("option", { value: n, text: String(n) })));
  players.value = String(Math.max(game.min_players, Math.min(2, game.max_players)));
  players.onchange = fillSeats;
  fillSeats();
  fillOptions(game);
}

function fillSeats() {
  const count = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const rows = [el("legend", { text: "Seats" })];
  for (let seat = 0; seat < count; seat++) {
    const kind = el(
      "select",
      { name: "kind" + seat, "aria-label": seatName(seat) + ": who plays" },
      el("option", { value: "person", text: "a person" }),
      ...state.levels.map((level) => el("option", { value: "computer:" + level, text: "computer, " + level })),
    );
    if (seat > 0 && count === 2) kind.value = "computer:" + state.levels[0];
    const me = el("input", { type: "radio", name: "me", value: String(seat), checked: seat === 0, "aria-label": "I sit at " + seatName(seat) });
    rows.push(el("div", { class: "seat" }, el("span", { class: "mark", text: seatName(seat) }), kind, el("label", {}, me, " me")));
  }
  box.replaceChildren(...rows);
}

function fillOptions(game) {
  const box = document.getElementById("options");
  const rows = game.options.map((o) => {
    const id = "opt-" + o.name;
    let input;
    if (o.kind === "bool") {
      input = el("input", { type: "checkbox", id, checked: o.default === true });
    } else if (o.choices) {
      input = el("select", { id }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c) })));
      input.value = JSON.stringify(o.default);
    } else if (o.kind === "int" || o.kind === "float") {
      input = el("input", { type: "number", id, step: o.kind === "int" ? "1" : "any", min: o.minimum, max: o.maximum });
      input.value = o.default === null ? "" : String(o.default);
    } else if (o.kind === "list") {
      input = el("input", { type: "text", id, placeholder: "a JSON list, e.g. [\"a\", \"b\"]" });
      input.value = o.default === null || (Array.isArray(o.default) && !o.default.length) ? "" : JSON.stringify(o.default);
    } else {
      input = el("textarea", { id, rows: 1 });
      input.value = o.default === null ? "" : String(o.default);
    }
    input.dataset.option = o.name;
    return el("div", { class: "option" }, el("label", { for: id, text: o.name }), input, el("p", { class: "hint", text: o.description }));
  });
  box.replaceChildren(...rows);
}

function readOptions(game) {
  const options = {};
  for (const o of game.options) {
    const input = document.getElementById("opt-" + o.name);
    if (!input) continue;
    let value;
    if (o.kind === "bool") value = input.checked;
    else if (o.choices) value = JSON.parse(input.value);
    else if (input.value.trim() === "") value = o.nullable ? null : o.default;
    else if (o.kind === "int" || o.kind === "float") value = Number(input.value);
    else if (o.kind === "list") {
      try {
        value = JSON.parse(input.value);
      } catch (e) {
        throw new Error("option " + o.name + ": not a JSON list");
      }
    } else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(o.default)) options[o.name] = value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("new-error");
  error.textContent = "";
  const game = gameById(document.getElementById("game").value);
  const count = Number(document.getElementById("players").value);
  const seats = [];
  for (let seat = 0; seat < count; seat++) {
    const value = document.querySelector("[name=kind" + seat + "]").value;
    seats.push(value === "person" ? { kind: "person" } : { kind: "computer", level: value.slice("computer:".length) });
  }
  const chosen = document.querySelector("input[name=me]:checked");
  let me = chosen ? Number(chosen.value) : null;
  if (me !== null && seats[me].kind !== "person") me = null;
  let made;
  try {
    const body = { game: game.id, seats, options: readOptions(game), public: document.getElementById("public").checked, me };
    if (document.getElementById("clock-on").checked) {
      body.clock = {
        minutes: Number(document.getElementById("clock-minutes").value),
        increment: Number(document.getElementById("clock-increment").value),
        at_zero: document.getElementById("clock-zero").value,
        level: state.levels[0],
      };
    }
    made = await api("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) {
    error.textContent = e.message;
    return;
  }
  showMade(game, made);
}

function showMade(game, made) {
  const list = document.getElementById("made-links");
  const items = [];
  let go = tableLink(made.table, made.watch.token);
  for (const seat of made.seats) {
    if (!seat.token) continue;
    const url = location.origin + seat.link;
    if (seat.seat === made.me) {
      rememberGame({ table: made.table, game: game.id, title: game.title, seat: seat.seat, token: seat.token });
      go = seat.link;
    }
    items.push(linkItem(seatName(seat.seat) + (seat.seat === made.me ? " (you)" : ""), url));
  }
  items.push(linkItem("spectators", location.origin + made.watch.link));
  if (made.me === null) rememberGame({ table: made.table, game: game.id, title: game.title, seat: null, token: made.watch.token });
  list.replaceChildren(...items);
  document.getElementById("made-go").href = go;
  document.getElementById("made").hidden = false;
  refreshMine();
}

function linkItem(label, url) {
  const input = el("input", { type: "text", readonly: true, value: url, "aria-label": label + " link" });
  const copy = el("button", {
    type: "button",
    text: "copy",
    onclick: () => {
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(url);
    },
  });
  return el("li", {}, el("span", { class: "mark", text: label }), input, copy);
}

// -- my games and open games ------------------------------------------------------
async function refreshMine() {
  const mine = myGames();
  const list = document.getElementById("mine-list");
  if (!mine.length) {
    list.replaceChildren(el("li", { class: "hint", text: "No games yet: start one below, or open a link a friend sent." }));
    return;
  }
  let status = {};
  try {
    const ids = [...new Set(mine.map((g) => g.table))].slice(0, 100).join(",");
    status = (await api("/api/status?ids=" + encodeURIComponent(ids))).tables;
  } catch (e) {
    status = {};
  }
  list.replaceChildren(
    ...mine.map((g) => {
      const s = status[g.table];
      let line = "";
      let mine = false;
      if (!s) line = "not found on this server";
      else if (s.over) line = "over: " + (s.result ? s.result.reason : "");
      else {
        mine = g.seat !== null && s.to_move === g.seat;
        line = "move " + s.move + ", " + (mine ? "your turn" : seatName(s.to_move) + " to move");
      }
      notifyTurn(g, mine);
      const forget = el("button", { type: "button", class: "small", text: "forget", onclick: () => { forgetGame(g.table, g.token); refreshMine(); } });
      return el(
        "li",
        { class: mine ? "turn" : "" },
        el("a", { href: tableLink(g.table, g.token), text: (g.title || g.game) + " · " + (g.seat === null ? "watching" : seatName(g.seat)) }),
        el("span", { class: "status", text: line }),
        forget,
      );
    }),
  );
}

function notifyTurn(g, mine) {
  const key = g.table + "/" + g.seat;
  const before = state.lastTurn[key];
  state.lastTurn[key] = mine;
  if (!mine || before !== false) return;
  if (document.getElementById("notify").checked && "Notification" in window && Notification.permission === "granted") {
    new Notification("astrarium: your turn", { body: (g.title || g.game) + ", " + seatName(g.seat) });
  }
}

async function refreshOpen() {
  const list = document.getElementById("open-list");
  let open = [];
  try {
    open = (await api("/api/tables")).tables;
  } catch (e) {
    list.replaceChildren(el("li", { class: "error", text: e.message }));
    return;
  }
  if (!open.length) {
    list.replaceChildren(el("li", { class: "hint", text: "No open public games right now." }));
    return;
  }
  list.replaceChildren(
    ...open.map((t) => {
      const free = t.seats.filter((s) => !s.taken).length;
      const join = el("button", { type: "button", text: "join", onclick: () => joinTable(t) });
      const watch = el("a", { href: tableLink(t.table, null), text: "watch" });
      return el("li", {}, el("span", { text: t.title + " · " + t.players + " players · " + free + " free · move " + t.move }), join, watch);
    }),
  );
}

async function joinTable(t) {
  try {
    const request = { method: "POST", headers: { "content-type": "application/json" }, body: "{}" };
    const seat = await api("/api/tables/" + encodeURIComponent(t.table) + "/join", request);
    rememberGame({ table: t.table, game: t.game, title: t.title, seat: seat.seat, token: seat.token });
    location.href = seat.link;
  } catch (e) {
    alert(e.message);
    refreshOpen();
  }
}

async function start() {
  const notify = document.getElementById("notify");
  notify.checked = localStorage.getItem("astrarium.notify") === "1";
  notify.addEventListener("change", async () => {
    if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
      notify.checked = (await Notification.requestPermission()) === "granted";
    }
    localStorage.setItem("astrarium.notify", notify.checked ? "1" : "0");
  });
  document.getElementById("new-form").addEventListener("submit", create);
  const clockOn = document.getElementById("clock-on");
  clockOn.addEventListener("change", () => {
    document.querySelector("#clock-box summary").textContent = "Chess clock (" + (clockOn.checked ? "on" : "off") + ")";
  });
  try {
    const data = await api("/api/games");
    state.games = data.games;
    state.levels = data.levels;
    fillGames();
  } catch (e) {
    document.getElementById("new-error").textContent = e.message;
  }
  refreshMine();
  refreshOpen();
  setInterval(refreshMine, 15000);
  setInterval(refreshOpen, 30000);
}

start();
