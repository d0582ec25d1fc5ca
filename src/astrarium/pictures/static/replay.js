"use strict";
(function () {
  const board = document.getElementById("board");
  const list = document.getElementById("moves");
  const jump = document.getElementById("jump");
  const where = document.getElementById("where");
  const status = document.getElementById("unpacking");
  const playButton = document.getElementById("play");
  const CUT = ">";

  // The data: JSON, gzip-compressed, in base64 (astrarium/pictures/packing.py). Unpacked here, with no request.
  function unpack(text) {
    const binary = atob(text.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  // Each picture as piece indices: the first whole, each later one built from the one before
  // (a number is a piece to append, [start, length] copies a run of the previous picture).
  function pictureIndices(frames) {
    let previous = [];
    return frames.map(function (ops) {
      const current = [];
      ops.forEach(function (op) {
        if (typeof op === "number") current.push(op);
        else for (let k = op[0]; k < op[0] + op[1]; k++) current.push(previous[k]);
      });
      previous = current;
      return current;
    });
  }

  function listMoves(moves, show) {
    moves.forEach(function (move, i) {
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
  }

  function start(data) {
    const pictures = pictureIndices(data.frames);
    const pieces = data.pieces;
    const last = pictures.length - 1;
    let at = 0;
    let timer = null;
    jump.max = String(last);
    function picture(i) { return pictures[i].map(function (k) { return pieces[k]; }).join(CUT); }
    function show(i) {
      at = Math.max(0, Math.min(last, i));
      board.innerHTML = picture(at);
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
    listMoves(data.moves, show);
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
    status.hidden = true;
    document.body.dataset.ready = "true";
  }

  if (typeof DecompressionStream === "undefined") {
    status.textContent = "This browser cannot unpack the moves (it lacks DecompressionStream); the start is shown.";
    return;
  }
  unpack(document.getElementById("data").textContent).then(start, function (error) {
    status.textContent = "The moves could not be unpacked: " + error;
  });
})();
