// Rensa's board: draws the server's state, sends the user's requests to the JSON API and
// follows changes through server-sent events. The server holds the game; this page only
// shows it, so every open tab shows the same game.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;   // distance between lines, in board units
const MARGIN = 34; // room for the coordinates

let state = null;     // the last state received
let cursor = null;    // [x, y] of the keyboard cursor
let keyboard = false; // the cursor is shown once the keys move it
let analysedKey = ""; // the position last sent for analysis

const $ = (id) => document.getElementById(id);

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Squares and scores as the engine writes them.
function columnName(x) { return x < 26 ? String.fromCharCode(97 + x) : String(x + 1); }
function squareName(x, y) { return columnName(x) + (y + 1); }
function at(x) { return MARGIN + x * CELL; }

// ---- requests ----------------------------------------------------------------------

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
  } catch (e) {
    toast("The server cannot be reached: " + e.message);
    return { ok: false, error: e.message };
  }
  const data = await response.json().catch(() => ({ error: "unreadable answer" }));
  if (!response.ok) {
    toast(data.error || ("error " + response.status));
    return { ok: false, error: data.error || String(response.status) };
  }
  show(data);
  return { ok: true };
}

function play(x, y) {
  if (!state || state.result) return;
  post("/api/move", { move: [x, y], version: state.version });
}

// ---- drawing -----------------------------------------------------------------------

function stars(w, h) {
  if (w < 9 || h < 9) return [];
  const d = w >= 13 && h >= 13 ? 3 : 2;
  const pts = [[d, d], [w - 1 - d, d], [d, h - 1 - d], [w - 1 - d, h - 1 - d]];
  if (w % 2 === 1 && h % 2 === 1) pts.push([(w - 1) / 2, (h - 1) / 2]);
  return pts;
}

function heatColour(score, proven) {
  // Red is good for the side to move, blue bad; stronger the further from even. The
  // curve is about four times steeper than the win rate's (scale 3800, see INFO WINRATE),
  // so that the moves of a near-even position are told apart.
  let rate = proven ? (score > 0 ? 1 : 0) : 1 / (1 + Math.exp(-score / 1000));
  const strength = Math.min(1, Math.abs(rate - 0.5) * 2);
  const alpha = (0.2 + 0.6 * strength).toFixed(2);
  return rate >= 0.5 ? `rgba(226,54,40,${alpha})` : `rgba(40,96,226,${alpha})`;
}

function drawBoard(s) {
  const svg = $("board");
  const w = s.width, h = s.height;
  svg.setAttribute("viewBox", `0 0 ${2 * MARGIN + (w - 1) * CELL} ${2 * MARGIN + (h - 1) * CELL}`);
  svg.dataset.width = w;
  svg.dataset.height = h;
  svg.replaceChildren();
  el("rect", { class: "board-bg", x: 0, y: 0, width: 2 * MARGIN + (w - 1) * CELL, height: 2 * MARGIN + (h - 1) * CELL, rx: 6 }, svg);
  const grid = el("g", { class: "grid" }, svg);
  for (let x = 0; x < w; x++) el("line", { x1: at(x), y1: at(0), x2: at(x), y2: at(h - 1) }, grid);
  for (let y = 0; y < h; y++) el("line", { x1: at(0), y1: at(y), x2: at(w - 1), y2: at(y) }, grid);
  for (const [x, y] of stars(w, h)) el("circle", { class: "star", cx: at(x), cy: at(y), r: 3.5 }, svg);
  const coords = el("g", { class: "coords" }, svg);
  for (let x = 0; x < w; x++) {
    el("text", { class: "coord", x: at(x), y: MARGIN / 2 - 2 }, coords).textContent = columnName(x);
    el("text", { class: "coord", x: at(x), y: at(h - 1) + MARGIN / 2 + 2 }, coords).textContent = columnName(x);
  }
  for (let y = 0; y < h; y++) {
    el("text", { class: "coord", x: MARGIN / 2 - 2, y: at(y) }, coords).textContent = y + 1;
    el("text", { class: "coord", x: at(w - 1) + MARGIN / 2 + 2, y: at(y) }, coords).textContent = y + 1;
  }

  const analysis = $("analysis-mode").checked ? s.analysis : null;
  const heat = el("g", { id: "heatmap" }, svg);
  if (analysis) {
    for (const c of analysis.heatmap) {
      el("rect", {
        class: "heat", "data-x": c.x, "data-y": c.y, "data-score": c.score,
        x: at(c.x) - CELL / 2 + 1, y: at(c.y) - CELL / 2 + 1, width: CELL - 2, height: CELL - 2, rx: 5,
        fill: heatColour(c.score, c.proven),
      }, heat);
      el("text", { class: "heat-text", x: at(c.x), y: at(c.y) }, heat).textContent = c.text;
    }
    const best = analysis.lines[0];
    if (best && best.squares.length) {
      const [bx, by] = best.squares[0];
      el("rect", { class: "best-mark", x: at(bx) - CELL / 2 + 2, y: at(by) - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, rx: 6 }, heat);
    }
  }

  const forbidden = el("g", { id: "forbidden" }, svg);
  for (const [x, y] of s.forbidden) {
    const g = el("g", { class: "forbidden", "data-x": x, "data-y": y }, forbidden);
    const r = CELL * 0.22;
    el("line", { x1: at(x) - r, y1: at(y) - r, x2: at(x) + r, y2: at(y) + r }, g);
    el("line", { x1: at(x) - r, y1: at(y) + r, x2: at(x) + r, y2: at(y) - r }, g);
  }

  const winning = new Set((s.result ? s.result.line : []).map(([x, y]) => x + "," + y));
  const stones = el("g", { id: "stones" }, svg);
  const numbers = $("numbers").checked;
  s.moves.forEach(([x, y], i) => {
    const colour = i % 2 === 0 ? "black" : "white";
    const cls = "stone " + colour + (winning.has(x + "," + y) ? " win" : "");
    el("circle", { class: cls, "data-x": x, "data-y": y, "data-n": i + 1, cx: at(x), cy: at(y), r: CELL * 0.46 }, stones);
    if (numbers) {
      el("text", { class: "num on-" + colour, x: at(x), y: at(y) }, stones).textContent = i + 1;
    }
  });
  const last = s.moves[s.moves.length - 1];
  if (last && !numbers) {
    el("circle", { class: "last-mark", "data-x": last[0], "data-y": last[1], cx: at(last[0]), cy: at(last[1]), r: 5 }, svg);
  }
  if (s.result && s.result.line.length >= 2) {
    const a = s.result.line[0], b = s.result.line[s.result.line.length - 1];
    el("line", { class: "win-line", x1: at(a[0]), y1: at(a[1]), x2: at(b[0]), y2: at(b[1]) }, svg);
  }
  if (s.thinking && s.thinking.pv_squares.length) {
    const [px, py] = s.thinking.pv_squares[0];
    el("circle", { class: "pv-mark", cx: at(px), cy: at(py), r: CELL * 0.4 }, svg);
  }
  if (cursor && keyboard && document.activeElement === svg) {
    el("rect", { class: "cursor", x: at(cursor[0]) - CELL / 2 + 2, y: at(cursor[1]) - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, rx: 4 }, svg);
  }

  const cells = el("g", { id: "cells" }, svg);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      el("rect", {
        class: "cell", "data-x": x, "data-y": y, x: at(x) - CELL / 2, y: at(y) - CELL / 2,
        width: CELL, height: CELL, "aria-label": squareName(x, y),
      }, cells);
    }
  }
}

function drawGraph(s) {
  const svg = $("graph");
  svg.replaceChildren();
  el("line", { class: "graph-mid", x1: 0, y1: 50, x2: 300, y2: 50 }, svg);
  const n = Math.max(s.evals.length - 1, 1);
  const x = (i) => (i / n) * 296 + 2;
  const y = (rate) => 96 - rate * 92;
  let d = "";
  let drawn = 0;
  s.evals.forEach((e, i) => {
    if (!e) return; // unknown positions are passed over
    d += (drawn ? "L" : "M") + x(i).toFixed(1) + "," + y(e.rate).toFixed(1) + " ";
    drawn++;
  });
  if (drawn) el("path", { class: "graph-line", d: d.trim() }, svg);
  s.evals.forEach((e, i) => {
    if (e) el("circle", { class: "graph-point", "data-ply": i, "data-rate": e.rate, cx: x(i), cy: y(e.rate), r: 2.2 }, svg);
  });
  el("line", { class: "graph-now", x1: x(s.moves.length), y1: 0, x2: x(s.moves.length), y2: 100 }, svg);
  svg.dataset.points = drawn;
}

function sideText(s, colour) {
  const who = s.players[colour];
  const name = colour === "black" ? "Black" : "White";
  if (who === "engine") return name + " (" + s.engine.name + ")";
  return s.players.black === "human" && s.players.white === "human" ? name : name + " (you)";
}

function drawPanel(s) {
  let status;
  if (s.result) status = s.result.text;
  else if (s.engine.busy) status = sideText(s, s.to_move) + " is thinking…";
  else status = sideText(s, s.to_move) + " to move";
  $("status").textContent = status;

  const t = $("thinking");
  if (s.thinking) {
    const parts = [];
    if (s.thinking.depth) parts.push("Depth " + s.thinking.depth);
    if (s.thinking.score) parts.push("Eval " + s.thinking.score.text);
    if (s.thinking.pv.length) parts.push(s.thinking.pv.join(" "));
    if (s.thinking.nodes) parts.push(s.thinking.nodes.toLocaleString("en") + " nodes");
    t.textContent = parts.length ? parts.join(" · ") : "Thinking…";
    t.className = "busy";
    t.hidden = false;
  } else {
    t.hidden = true;
  }

  $("engine-error").hidden = !s.engine.error;
  $("engine-error-text").textContent = s.engine.error ? "The engine failed: " + s.engine.error : "";

  const level = s.players.black === "engine" || s.players.white === "engine"
    ? ` · ${s.level} · ${s.time_ms / 1000} s a move` : "";
  $("setup-text").textContent = `${s.width}×${s.height} ${s.rule}${level} · move ${s.moves.length}`;

  $("undo").disabled = s.moves.length === 0;
  $("redo").disabled = s.redo === 0;
  const moves = $("moves-text");
  if (document.activeElement !== moves) moves.value = s.pos === null ? "" : s.pos;

  const panel = $("analysis-panel");
  panel.hidden = !$("analysis-mode").checked;
  const a = s.analysis;
  $("analysis-info").textContent = s.analysing ? "Analysing…"
    : a ? `Depth ${a.depth}, ${a.nodes.toLocaleString("en")} nodes, ${(a.elapsed_ms / 1000).toFixed(2)} s; scores for ${a.to_move}`
    : s.result ? "The game is over." : "";
  const list = $("analysis-lines");
  list.replaceChildren();
  if (a) {
    for (const line of a.lines) {
      const li = document.createElement("li");
      li.textContent = line.score.text + "  " + line.moves.join(" ");
      list.appendChild(li);
    }
  }
}

function show(s) {
  if (state && s.version < state.version) return; // an older answer overtaken by events
  state = s;
  const body = document.body;
  body.dataset.ready = "true";
  body.dataset.version = s.version;
  body.dataset.ply = s.moves.length;
  body.dataset.busy = s.engine.busy ? "true" : "false";
  body.dataset.result = s.result ? (s.result.winner || "draw") : "";
  body.dataset.toMove = s.to_move;
  body.dataset.rule = s.rule;
  body.dataset.analysing = s.analysing ? "true" : "false";
  body.dataset.analysed = s.analysis ? "true" : "false";
  body.dataset.engineError = s.engine.error ? "true" : "false";
  drawBoard(s);
  drawGraph(s);
  drawPanel(s);
  maybeAnalyse(s);
}

function redraw() { if (state) show(state); }

// Analysis mode: each new position is analysed once, when the engine is not thinking.
function maybeAnalyse(s) {
  if (!$("analysis-mode").checked || s.result || s.analysing || s.analysis || s.engine.busy) return;
  const key = s.rule + ":" + s.width + "x" + s.height + ":" + JSON.stringify(s.moves);
  if (key === analysedKey) return;
  analysedKey = key;
  post("/api/analyse", {});
}

// ---- events ------------------------------------------------------------------------

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (e) => show(JSON.parse(e.data)));
  source.onerror = () => { $("status").textContent = "Reconnecting to the server…"; };
}

function openNewGame() {
  const s = state;
  if (s) {
    $("new-rule").value = s.rule;
    $("new-width").value = s.width;
    $("new-height").value = s.height;
    const p = s.players;
    $("new-players").value = p.black === "human" && p.white === "engine" ? "black"
      : p.black === "engine" && p.white === "human" ? "white"
      : p.black === "engine" ? "engines" : "people";
    $("new-level").value = s.level;
    $("new-time").value = s.time_ms / 1000;
  }
  $("new-error").hidden = true;
  $("new-dialog").showModal();
}

async function startNewGame(event) {
  event.preventDefault();
  const players = {
    black: { black: "human", white: "engine" },
    white: { black: "engine", white: "human" },
    engines: { black: "engine", white: "engine" },
    people: { black: "human", white: "human" },
  }[$("new-players").value];
  const body = {
    rule: $("new-rule").value,
    width: Number($("new-width").value),
    height: Number($("new-height").value),
    black: players.black,
    white: players.white,
    level: $("new-level").value,
    time_ms: Math.round(Number($("new-time").value) * 1000),
  };
  const seed = $("new-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  analysedKey = "";
  const result = await post("/api/new", body);
  if (result.ok) {
    $("new-dialog").close();
  } else {
    $("new-error").textContent = result.error;
    $("new-error").hidden = false;
  }
}

async function loadFile() {
  const input = $("load-file");
  const file = input.files && input.files[0];
  if (!file) return;
  const text = await file.text();
  const name = file.name.toLowerCase();
  const format = name.endsWith(".sgf") ? "sgf" : name.endsWith(".psq") ? "psq" : undefined;
  analysedKey = "";
  const result = await post("/api/load", format ? { text, format } : { text });
  if (result.ok) toast("Loaded " + file.name);
  input.value = "";
}

async function copyMoves() {
  const text = $("moves-text").value;
  try {
    await navigator.clipboard.writeText(text);
    toast("Moves copied");
  } catch (e) {
    $("moves-text").select();
    toast("Select and copy the moves: " + text);
  }
}

function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  $("theme").textContent = theme === "dark" ? "Light" : "Dark";
  try { localStorage.setItem("rensa-theme", theme); } catch (e) { /* private mode */ }
}

function keyDown(e) {
  if (e.target.closest("input, select, textarea, dialog")) return;
  const board = $("board");
  const ctrl = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (ctrl && key === "z") { post("/api/undo"); e.preventDefault(); return; }
  if (ctrl && key === "y") { post("/api/redo"); e.preventDefault(); return; }
  if (ctrl || e.altKey) return;
  const moves = { arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, -1], arrowdown: [0, 1] };
  if (moves[key] && state) {
    if (document.activeElement !== board) board.focus();
    keyboard = true;
    if (!cursor) cursor = [Math.floor(state.width / 2), Math.floor(state.height / 2)];
    else {
      cursor = [
        Math.min(state.width - 1, Math.max(0, cursor[0] + moves[key][0])),
        Math.min(state.height - 1, Math.max(0, cursor[1] + moves[key][1])),
      ];
    }
    redraw();
    e.preventDefault();
    return;
  }
  if ((key === "enter" || key === " ") && document.activeElement === board && cursor) {
    play(cursor[0], cursor[1]);
    e.preventDefault();
    return;
  }
  const actions = {
    u: () => post("/api/undo"),
    r: () => post("/api/redo"),
    n: openNewGame,
    a: () => { $("analysis-mode").click(); },
    m: () => { $("numbers").click(); },
    t: () => $("theme").click(),
  };
  if (actions[key]) { actions[key](); e.preventDefault(); }
}

function start() {
  let theme = null;
  try { theme = localStorage.getItem("rensa-theme"); } catch (e) { /* private mode */ }
  if (!theme) theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  setTheme(theme);
  try { $("numbers").checked = localStorage.getItem("rensa-numbers") === "1"; } catch (e) { /* */ }

  $("board").addEventListener("click", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell) return;
    cursor = [Number(cell.dataset.x), Number(cell.dataset.y)];
    keyboard = false;
    play(cursor[0], cursor[1]);
  });
  $("board").addEventListener("blur", redraw);
  $("new-game").addEventListener("click", openNewGame);
  $("new-form").addEventListener("submit", startNewGame);
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("undo").addEventListener("click", () => post("/api/undo"));
  $("redo").addEventListener("click", () => post("/api/redo"));
  $("restart-engine").addEventListener("click", () => post("/api/restart-engine"));
  $("evaluate-game").addEventListener("click", () => post("/api/analyse", { game: true }));
  $("analysis-mode").addEventListener("change", () => { analysedKey = ""; redraw(); });
  $("numbers").addEventListener("change", () => {
    try { localStorage.setItem("rensa-numbers", $("numbers").checked ? "1" : "0"); } catch (e) { /* */ }
    redraw();
  });
  $("theme").addEventListener("click", () => {
    setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
  });
  $("load-file").addEventListener("change", loadFile);
  $("copy-moves").addEventListener("click", copyMoves);
  $("set-moves").addEventListener("click", () => {
    analysedKey = "";
    post("/api/load", { text: $("moves-text").value, format: "pos" });
  });
  $("moves-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter") $("set-moves").click();
  });
  document.addEventListener("keydown", keyDown);

  fetch("/api/state").then((r) => r.json()).then(show).catch(() => {});
  connect();
}

start();
