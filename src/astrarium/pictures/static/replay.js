"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const board = document.getElementById("board");
  const list = document.getElementById("moves");
  const jump = document.getElementById("jump");
  const where = document.getElementById("where");
  const playButton = document.getElementById("play");
  const last = data.pictures.length - 1;
  let at = 0;
  let timer = null;
  jump.max = String(last);
  data.moves.forEach(function (move, i) {
    const li = document.createElement("li");
    li.value = move.n;
    li.tabIndex = 0;
    li.textContent = move.text;
    li.title = move.notation;
    move.more.forEach(function (line) {
      const more = document.createElement("div");
      more.className = "more";
      more.textContent = line;
      li.appendChild(more);
    });
    li.addEventListener("click", function () { show(i + 1); });
    li.addEventListener("keydown", function (e) { if (e.key === "Enter") show(i + 1); });
    list.appendChild(li);
  });
  function show(i) {
    at = Math.max(0, Math.min(last, i));
    board.innerHTML = data.pictures[at];
    jump.value = String(at);
    where.textContent = at === 0 ? "start" : "after move " + at + " of " + last;
    Array.prototype.forEach.call(list.children, function (li, k) { li.classList.toggle("now", k === at - 1); });
    const now = list.children[at - 1];
    if (now && now.scrollIntoView) now.scrollIntoView({block: "nearest"});
  }
  function toggle() {
    if (timer) { clearInterval(timer); timer = null; playButton.textContent = "play"; return; }
    if (at >= last) show(0);
    playButton.textContent = "pause";
    timer = setInterval(function () { if (at >= last) toggle(); else show(at + 1); }, 800);
  }
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(at - 1); });
  document.getElementById("next").addEventListener("click", function () { show(at + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  playButton.addEventListener("click", toggle);
  jump.addEventListener("input", function () { show(Number(jump.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "ArrowLeft") show(at - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(last);
    else if (e.key === " ") { e.preventDefault(); toggle(); }
    else return;
  });
  show(0);
})();
