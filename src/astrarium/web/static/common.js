// Shared by the lobby and the table page: the games this browser has joined (kept in localStorage),
// and small helpers. Seat links are secrets: they live only in this browser's storage and in
// the page address after '#', which is never sent to the server.

const KEY = "astrarium.games";

export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((g) => g && typeof g.table === "string") : [];
  } catch (e) {
    return [];
  }
}

export function rememberGame(entry) {
  const list = myGames().filter((g) => !(g.table === entry.table && g.token === entry.token));
  list.unshift({ ...entry, saved: Date.now() });
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 200)));
}

export function forgetGame(table, token) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter((g) => !(g.table === table && g.token === token))));
}

export function findGame(table) {
  return myGames().find((g) => g.table === table) || null;
}

export function tableLink(table, token) {
  return "/t/" + encodeURIComponent(table) + (token ? "#k=" + encodeURIComponent(token) : "#watch");
}

export async function api(path, options) {
  const response = await fetch(path, options);
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    const message = body && body.error ? body.error.message : "the server answered " + response.status;
    throw new Error(message);
  }
  return body;
}

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export const MARKS = ["A", "B", "C", "D"];

export function seatName(seat) {
  return seat === null || seat === undefined ? "nobody" : "seat " + seat + " (" + MARKS[seat % MARKS.length] + ")";
}
