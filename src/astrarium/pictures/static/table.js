"use strict";
// The generic client for clicking a picture: tokens clicked so far narrow the legal actions
// (the same rule as astrarium.core.svg.narrow) until one is left.
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const status = document.getElementById("status");
  const legalList = document.getElementById("legal");
  const buttons = document.getElementById("buttons");
  let clicked = [];

  function narrow(clicks) {
    return data.legal.filter(function (notation) {
      const pool = data.tokens[notation].slice();
      return clicks.every(function (t) {
        const k = pool.indexOf(t);
        if (k < 0) return false;
        pool.splice(k, 1);
        return true;
      });
    });
  }
  function chosen(clicks) {
    const left = narrow(clicks);
    if (left.length === 1) return left[0];
    const want = clicks.slice().sort().join("\u0000");
    const exact = left.filter(function (n) { return data.tokens[n].slice().sort().join("\u0000") === want; });
    return exact.length === 1 ? exact[0] : null;
  }
  function choose(notation) {
    status.textContent = "Chosen: " + notation;
    document.body.dataset.chosen = notation;
    document.dispatchEvent(new CustomEvent("astrarium:choose", {detail: notation}));
  }
  function refresh() {
    const left = narrow(clicked);
    document.querySelectorAll("[data-token]").forEach(function (el) {
      el.classList.toggle("sel", clicked.indexOf(el.getAttribute("data-token")) >= 0);
    });
    legalList.innerHTML = "";
    left.forEach(function (notation) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.textContent = notation;
      b.addEventListener("click", function () { choose(notation); });
      li.appendChild(b);
      legalList.appendChild(li);
    });
    if (!clicked.length) status.textContent = data.legal.length ? "Click the picture, or pick an action below." : "Nothing to play here.";
    else if (!left.length) status.textContent = "No legal action fits: " + clicked.join(" ");
    else status.textContent = "Clicked: " + clicked.join(" ") + " (" + left.length + " possible)";
    const pick = chosen(clicked);
    if (pick && left.length === 1) choose(pick);
  }
  function click(token) {
    const next = clicked.concat([token]);
    if (!narrow(next).length) { status.textContent = token + " fits no legal action here"; return; }
    clicked = next;
    refresh();
  }
  document.getElementById("board").addEventListener("click", function (e) {
    let el = e.target;
    while (el && el !== this && !(el.getAttribute && el.getAttribute("data-token"))) el = el.parentNode;
    if (el && el !== this) click(el.getAttribute("data-token"));
  });
  data.buttons.forEach(function (token) {
    const b = document.createElement("button");
    b.textContent = token;
    b.setAttribute("data-button", token);
    b.addEventListener("click", function () { click(token); });
    buttons.appendChild(b);
  });
  document.getElementById("clear").addEventListener("click", function () { clicked = []; delete document.body.dataset.chosen; refresh(); });
  refresh();
})();
