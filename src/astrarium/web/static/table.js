// The table page: one WebSocket to the server, the picture, the legal actions, the move log.
// The server is authoritative: this page only shows what it is sent and sends action notations.
import { buttons, chosen, narrow } from "/static/narrow.js";
import { el, findGame, rememberGame, seatName } from "/static/common.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const page = {
  token: null,
  seat: null,
  welcome: null,
  state: null,
  lastMove: 0,
  clicked: [],
  socket: null,
  retry: 0,
  stop: false,
  pending: null,
  seats: [],
  clock: null,
  clockAt: 0,
  chatSeen: new Set(),
};

function $(id) {
  return document.getElementById(id);
}

function readToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("k")) return hash.get("k");
  if (hash.has("watch")) return null;
  const saved = findGame(tableId);
  return saved ? saved.token : null;
}

// -- the connection ------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
  page.socket = socket;
  setLink("connecting…");
  socket.addEventListener("open", () => {
    const hello = { type: "hello", since: page.lastMove };
    if (page.token) hello.token = page.token;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket) return;
    page.socket = null;
    if ([4403, 4404].includes(event.code) || page.stop) {
      setLink("closed");
      return;
    }
    const wait = Math.min(15000, 1000 * 2 ** page.retry);
    page.retry = Math.min(page.retry + 1, 4);
    setLink("reconnecting in " + Math.round(wait / 1000) + " s…");
    setTimeout(connect, wait);
  });
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  showError("not connected; the page reconnects by itself");
  return false;
}

function setLink(text) {
  $("link-state").textContent = text;
  document.body.dataset.link = text === "connected" ? "up" : "down";
}

function receive(message) {
  if (message.type === "welcome") welcome(message);
  else if (message.type === "state") showState(message);
  else if (message.type === "seats") showSeats(message.seats);
  else if (message.type === "chat") message.lines.forEach(addChat);
  else if (message.type === "thanks") $("feedback-done").textContent = "Thank you: saved.";
  else if (message.type === "ack") {
    page.pending = null;
    showError("");
  } else if (message.type === "error") {
    page.pending = null;
    if (message.code === "bad-link" || message.code === "unknown-game" || message.code === "unavailable") page.stop = true;
    showError(message.message);
  }
}

function welcome(message) {
  page.welcome = message;
  page.seat = message.seat;
  page.retry = 0;
  setLink("connected");
  document.title = message.game.title + ": astrarium";
  $("title").textContent = message.game.title;
  $("who").textContent = message.seat === null ? "You are watching." : "You play " + message.you + ".";
  $("rules").href = "/api/games/" + encodeURIComponent(message.game.id) + "/rules";
  $("notation-help").textContent = message.game.notation_help || "";
  if (page.token && message.seat !== null) {
    rememberGame({ table: message.table, game: message.game.id, title: message.game.title, seat: message.seat, token: page.token });
  }
  showButtons(message.game.buttons);
  page.levels = message.levels;
  showSeats(message.seats);
  message.chat.forEach(addChat);
  $("say").hidden = message.seat === null;
  const clock = message.clock;
  $("clock-rule").textContent = clock
    ? "Chess clock: " + clock.minutes + " min each" + (clock.increment ? ", +" + clock.increment + " s a move" : "") +
      (clock.at_zero === "computer" ? "; at zero a computer (" + clock.level + ") plays the seat." : "; at zero nothing happens (it only counts).")
    : "";
}

// The click buttons: the game's own, and (with a picture) every token of a legal action the picture does not draw.
function showButtons(tokens) {
  const shown = Array.from(document.querySelectorAll("#buttons [data-button]"), (b) => b.getAttribute("data-button"));
  if (shown.join("\u0000") === tokens.join("\u0000")) return;
  $("buttons").replaceChildren(...tokens.map((token) => el("button", { type: "button", "data-button": token, text: token, onclick: () => click(token) })));
}

function positionButtons() {
  const game = page.welcome ? page.welcome.game : null;
  if (!game) return;
  if (!game.picture || !page.state) {
    showButtons(game.buttons);
    return;
  }
  const drawn = new Set(Array.from(document.querySelectorAll("#board [data-token]"), (node) => node.getAttribute("data-token")));
  showButtons(buttons(game.buttons, legalNow(), page.state.tokens || {}, drawn));
}

// -- seats: who is here, who is played by a computer --------------------------------------
function showSeats(seats) {
  page.seats = seats;
  const items = seats.map((s) => {
    let who = s.kind === "computer" ? "computer (" + s.level + ")" : s.handed ? "computer (" + s.handed + ") for a person" : s.present ? "here" : "away";
    if (s.seat === page.seat) who += ", you";
    const li = el("li", { "data-seat": s.seat }, el("span", { class: "mark", text: seatName(s.seat) }), el("span", { class: "who", text: who }));
    li.appendChild(el("span", { class: "clock", "data-clock": s.seat }));
    if (page.seat !== null && s.kind === "person" && s.seat !== page.seat && !s.present && !s.handed && page.levels && page.levels.length) {
      li.appendChild(el("button", { type: "button", class: "small", text: "hand to a computer", onclick: () => send({ type: "handover", seat: s.seat, level: page.levels[0] }) }));
    }
    if (s.seat === page.seat && s.handed) {
      li.appendChild(el("button", { type: "button", class: "small", text: "take my seat back", onclick: () => send({ type: "takeback" }) }));
    }
    return li;
  });
  $("seats").replaceChildren(...items);
  tickClock();
}

function tickClock() {
  if (!page.clock) return;
  const passed = (performance.now() - page.clockAt) / 1000;
  page.clock.left.forEach((left, seat) => {
    const node = document.querySelector('[data-clock="' + seat + '"]');
    if (!node) return;
    const now = page.clock.running === seat ? left - passed : left;
    const sign = now < 0 ? "-" : "";
    const secs = Math.floor(Math.abs(now));
    node.textContent = " " + sign + Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
    node.classList.toggle("running", page.clock.running === seat);
    node.classList.toggle("low", now < 30);
  });
}

// -- chat --------------------------------------------------------------------------------------
function addChat(line) {
  if (page.chatSeen.has(line.id)) return;
  page.chatSeen.add(line.id);
  const li = el("li", { text: seatName(line.seat) + ": " + line.text }); // text, never markup
  $("chat").appendChild(li);
  li.scrollIntoView({ block: "nearest" });
}

// -- showing a position -------------------------------------------------------------
function showState(message) {
  page.state = message;
  page.lastMove = message.move;
  page.clicked = [];
  const board = $("board");
  if (message.picture) board.innerHTML = message.picture; // drawn by the server from this seat's view, escaped there
  else board.replaceChildren(el("p", { class: "hint", text: "(no picture for this game: choose from the list)" }));
  for (const event of message.events) addEvent(event);
  if (message.earlier_events) addNote("(earlier moves are not shown)");
  const seats = page.welcome ? page.welcome.seats : [];
  let turn;
  if (message.over) turn = "The game is over.";
  else if (message.to_move === page.seat) turn = "Your turn.";
  else {
    const who = seats[message.to_move];
    turn = seatName(message.to_move) + (who && who.kind === "computer" ? " (computer" + (message.thinking ? ", thinking…" : "") + ")" : "") + " to move.";
  }
  $("turn").textContent = turn;
  document.body.dataset.myTurn = message.to_move === page.seat && !message.over ? "yes" : "no";
  page.clock = message.clock || null;
  page.clockAt = performance.now();
  tickClock();
  showOver(message);
  positionButtons();
  refreshChoice();
}

function addEvent(event) {
  const who = event.seat === null ? "" : seatName(event.seat) + ": ";
  const li = el("li", { value: event.n, text: who + event.text });
  $("log").appendChild(li);
  li.scrollIntoView({ block: "nearest" });
}

function addNote(text) {
  $("log").appendChild(el("li", { class: "hint", text }));
}

function showOver(message) {
  const box = $("over");
  box.hidden = !message.over;
  if (!message.over) return;
  const result = message.result || {};
  const winners = (result.winners || []).map(seatName).join(", ");
  $("result").textContent = (result.reason || "") + (winners ? " Winners: " + winners + "." : "");
  const scores = result.scores || [];
  $("scores").replaceChildren(...scores.map((s, i) => el("li", { text: seatName(i) + ": " + s })));
  for (const what of ["record", "replay"]) linkForm($(what), what);
  $("feedback").hidden = page.seat === null;
}

// The record and the replay: a private game's are opened with this page's link, sent in the body of a POST (never in the
// address, which logs keep); a public game watched without a link asks for them plainly.
function linkForm(form, what) {
  form.action = "/api/tables/" + encodeURIComponent(tableId) + "/" + what;
  form.method = page.token ? "post" : "get";
  form.elements.token.value = page.token || "";
  form.elements.token.disabled = !page.token;
}

// -- choosing an action ---------------------------------------------------------------
function legalNow() {
  const s = page.state;
  return s && !s.over && s.to_move === page.seat ? s.legal : [];
}

function refreshChoice() {
  const legal = legalNow();
  const tokens = page.state ? page.state.tokens : {};
  $("choice").hidden = !legal.length;
  const left = narrow(legal, tokens, page.clicked);
  document.querySelectorAll("#board [data-token]").forEach((node) => {
    node.classList.toggle("sel", page.clicked.includes(node.getAttribute("data-token")));
  });
  $("legal").replaceChildren(
    ...left.map((notation) => el("li", {}, el("button", { type: "button", "data-action": notation, text: notation, onclick: () => play(notation) }))),
  );
  $("legal-names").replaceChildren(...legal.map((n) => el("option", { value: n })));
  const status = $("status");
  if (!page.clicked.length) status.textContent = legal.length ? "Click the picture, or pick an action below." : "";
  else if (!left.length) status.textContent = "No legal action fits: " + page.clicked.join(" ");
  else status.textContent = "Clicked: " + page.clicked.join(" ") + " (" + left.length + " possible)";
  $("confirm-box").hidden = true;
  // Only once the player has clicked: a position with a single legal action is never played by itself.
  const pick = page.clicked.length ? chosen(legal, tokens, page.clicked) : null;
  if (pick && left.length === 1) offer(pick);
}

function offer(notation) {
  if (!$("confirm").checked) {
    play(notation);
    return;
  }
  const button = $("play-it");
  button.textContent = "Play: " + notation;
  button.onclick = () => play(notation);
  $("confirm-box").hidden = false;
  button.focus();
}

function click(token) {
  const legal = legalNow();
  if (!legal.length) return;
  const next = page.clicked.concat([token]);
  if (!narrow(legal, page.state.tokens, next).length) {
    $("status").textContent = token + " fits no legal action here";
    return;
  }
  page.clicked = next;
  refreshChoice();
}

function play(notation) {
  if (page.pending !== null || !page.state) return;
  if (send({ type: "act", action: notation, move: page.state.move, ref: page.state.move })) {
    page.pending = notation;
    $("status").textContent = "Playing " + notation + "…";
  }
}

function showError(text) {
  $("error").textContent = text;
}

function start() {
  page.token = readToken();
  $("board").addEventListener("click", (event) => {
    let node = event.target;
    while (node && node !== event.currentTarget && !(node.getAttribute && node.getAttribute("data-token"))) node = node.parentNode;
    if (node && node !== event.currentTarget) click(node.getAttribute("data-token"));
  });
  $("clear").addEventListener("click", () => {
    page.clicked = [];
    refreshChoice();
  });
  const confirm = $("confirm");
  confirm.checked = localStorage.getItem("astrarium.confirm") === "1";
  confirm.addEventListener("change", () => localStorage.setItem("astrarium.confirm", confirm.checked ? "1" : "0"));
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation").value.trim();
    if (text) play(text);
    $("notation").value = "";
  });
  $("say").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("say-text").value.trim();
    if (text && send({ type: "chat", text })) $("say-text").value = "";
  });
  const fun = $("fun");
  for (let n = 1; n <= 5; n++) {
    fun.appendChild(el("label", { class: "inline" }, el("input", { type: "radio", name: "fun", value: String(n), required: n === 1 }), " " + n + " "));
  }
  fun.prepend("Fun (1 dull, 5 great): ");
  $("feedback").addEventListener("submit", (event) => {
    event.preventDefault();
    const picked = document.querySelector("input[name=fun]:checked");
    if (!picked) {
      $("feedback-done").textContent = "pick a number from 1 to 5";
      return;
    }
    send({ type: "feedback", fun: Number(picked.value), text: $("feedback-text").value });
  });
  setInterval(tickClock, 500);
  // A ping now and then keeps proxies from closing a quiet connection while others think.
  setInterval(() => {
    if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "ping" }));
  }, 25000);
  connect();
}

start();
