// Click narrowing: the tokens clicked so far narrow the legal actions until one is left.
// The same rule as astrarium.core.svg.narrow / chosen (and pictures/static/table.js):
// every clicked token must be found among the action's tokens, each used once.

export function narrow(legal, tokens, clicks) {
  return legal.filter((notation) => {
    const pool = (tokens[notation] || notation.split(" ")).slice();
    return clicks.every((t) => {
      const k = pool.indexOf(t);
      if (k < 0) return false;
      pool.splice(k, 1);
      return true;
    });
  });
}

export function chosen(legal, tokens, clicks) {
  const left = narrow(legal, tokens, clicks);
  if (left.length === 1) return left[0];
  const want = clicks.slice().sort().join("\u0000");
  const exact = left.filter((n) => (tokens[n] || n.split(" ")).slice().sort().join("\u0000") === want);
  return exact.length === 1 ? exact[0] : null;
}

// The buttons a position offers (the same rule as astrarium.core.svg.buttons): the game's declared ones, then every
// token of a legal action that the picture does not draw, in the order first met, so every legal action can be clicked.
export function buttons(declared, legal, tokens, drawn) {
  const out = declared.slice();
  const seen = new Set(out.concat(Array.from(drawn)));
  for (const notation of legal) {
    for (const token of tokens[notation] || notation.split(" ")) {
      if (!seen.has(token)) {
        seen.add(token);
        out.push(token);
      }
    }
  }
  return out;
}
