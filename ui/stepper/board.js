// The stepper's board, drawn from the data of ui/stepper/board_data.py: the picture, the stack and
// the buffer, one button per move with its cost, the oracle's table, the score and the history.
// A click (or a key) sends one action back: {do: "move", move: "SH"}, {do: "jump", step: 2}, or one of
// the board's controls: {do: "oracle"} (the oracle's next move, decided by the page), "undo", "redo",
// "reset", "hide" (which also reveals), "switch" (to the system that can build the gold tree).
// Play is the browser's own: while it is on, each new board sends "oracle" after the chosen pause.
// User text is only ever set with textContent; the picture is SVG text escaped by its drawing.
//
// The data comes as JSON bytes; a rerun that sends the same bytes again redraws nothing.
// Streamlit calls this function again with new data at every rerun, on the same element, and runs
// the returned cleanup only when the board is removed: so the page's structure is built once, and
// one keyboard listener, shared by every board of the page, sends each key press to one board only.

const KEYS = window.__parsingBoardKeys || (window.__parsingBoardKeys = { boards: new Set(), on: false });
const WAIT_MS = 2000; // a key pressed before the board redraws is not sent twice

// The legend's text with the first use of each Glossary term as a link (one reused "glossary" tab).
function linkTerms(box, text, terms) {
  box.replaceChildren();
  let rest = text;
  const left = new Map(terms);
  while (rest) {
    let at = -1, word = "";
    for (const w of left.keys()) {
      const i = rest.indexOf(w);
      if (i >= 0 && (at < 0 || i < at)) { at = i; word = w; }
    }
    if (at < 0) { box.append(rest); break; }
    box.append(rest.slice(0, at));
    const a = el("a", "term", word);
    a.href = left.get(word); a.target = "glossary"; a.rel = "opener";
    box.append(a);
    left.delete(word);
    rest = rest.slice(at + word.length);
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function build(parent) {
  const root = el("div", "board");
  for (const part of ["unbuildable", "caption", "picture", "memory", "play"]) root.appendChild(el("div", part));
  const rules = root.appendChild(el("details", "rules"));  // opened and closed by the browser alone
  rules.appendChild(el("summary"));
  rules.appendChild(el("div", "rules-table"));
  rules.appendChild(el("p", "rules-note"));
  const play = root.querySelector(".play");
  const left = play.appendChild(el("div", "left"));
  const right = play.appendChild(el("div", "right"));
  for (const part of ["controls", "mistake", "moves", "hidden-note", "costs", "notes", "legend", "keys", "motion"]) left.appendChild(el("div", part));
  right.appendChild(el("div", "score"));
  right.appendChild(el("div", "history"));
  parent.appendChild(root);
  return root;
}

// -- sending ---------------------------------------------------------------------------------
// Each action names the drawing it was made on (the state's session and version): the server
// drops one made on an older board than the state it holds.
function send(view, action) {
  if (view.root.classList.contains("waiting")) return;
  waiting(view, true);
  const drawn = view.data || {};
  const message = { ...action, session: drawn.session, on: drawn.version, at: Date.now() };
  if (drawn.quick) sendQuick(view, message, drawn.quick);
  else view.send("action", message);
}

// The quick way (ui/stepper/board_channel.py): the click goes to the server over HTTP and the
// answer is the next board, drawn here with no run of the page; the new link goes into the
// address bar, as the page would put it.  An answer that the page must run (something besides
// the board changes), a server without the route, or a failure: the click goes the usual way.
// A server that holds no session of this board ("gone": it restarted, or another replica took
// the tab): the page reloads from its address, which holds the state (see goneTo).
async function sendQuick(view, message, quick) {
  let text = null, link = null;
  try {
    const response = await fetch(quick.url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: quick.token, action: message }),
    });
    if (response.status === 410 && goneTo(message)) return;
    if (response.status === 429) {  // past the caps on quick clicks a minute: the click is not made
      const refusal = await response.json().catch(() => ({}));
      view.root.title = refusal.error || "Too many clicks: wait a little.";
      waiting(view, false);
      return;
    }
    if (response.status === 200) {
      text = await response.text();
      link = response.headers.get("X-Board-Link");
    }
  } catch (e) { text = null; }
  if (text === null) {
    view.send("action", message);
    return;
  }
  if (link !== null) followLink(link);
  view.root.title = "";
  waiting(view, false);  // also when the answer is the board already drawn (a click on an older one)
  receive(view, text);
  view.root.dataset.quick = String((Number(view.root.dataset.quick) || 0) + 1);  // clicks answered this way
}

// The session is gone from the server: a rerun would start a new one from the link Streamlit
// last wrote (older than the quick clicks'), so reload the page from its address, and keep the
// click to send again once the same board is drawn (resend).  Not twice within a minute (a proxy
// that sends clicks to a server other than the page's): then the click goes the usual way.
const PENDING = "parsing-board-pending";
const RELOADED = "parsing-board-reloaded";

function goneTo(message) {
  try {
    if (Date.now() - Number(sessionStorage.getItem(RELOADED) || 0) < 60000) return false;
    sessionStorage.setItem(RELOADED, String(Date.now()));
    sessionStorage.setItem(PENDING, JSON.stringify({ link: window.location.search, action: message }));
  } catch (e) { return false; }
  window.location.reload();
  return true;
}

// The first board drawn after such a reload: the click kept goes on if the board is the one it
// was made on (the same address).
function resend(view) {
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
    sessionStorage.removeItem(PENDING);
  } catch (e) { pending = null; }
  if (!pending || pending.link !== window.location.search) return;
  const { session, on, at, ...action } = pending.action;
  send(view, action);
}

// A new entry in the browser's history for the new state, as Streamlit makes when the page
// changes its link: Back and Forward then rerun the page on the link, which follows it.
function followLink(link) {
  const search = link ? `?${link}` : "";
  if (search !== window.location.search) window.history.pushState({}, "", window.location.pathname + search);
}

// Between a click and the board it brings, the board says so (a busy cursor).  A board that never
// comes (a click lost on its way) frees the keys after WAIT_MS all the same, and Play asks again:
// if the first request did arrive, the server drops the second, made on the same drawing.
function waiting(view, on) {
  view.root.classList.toggle("waiting", on);
  clearTimeout(view.waitTimer);
  if (on) {
    view.waitTimer = setTimeout(() => {
      waiting(view, false);
      if (view.playing && can(view.data, "oracle")) send(view, { do: "oracle" });
    }, WAIT_MS);
  }
}

// The board's own buttons besides the moves, each with its key (Play has none: O steps once).
const CONTROLS = [["oracle", "Oracle step", "O"], ["play", "▶ Play", ""], ["undo", "↶ Undo", "U"],
  ["redo", "↷ Redo", "Y"], ["reset", "⟲ Reset", ""], ["hide", "Hide the oracle", "H"]];

function can(data, what) {
  if (what === "oracle" || what === "play") return Boolean(data.oracle && data.oracle.move);
  return what === "hide" || Boolean(data.controls[what]);
}

function drawControls(view, box, data) {
  if (!box.firstChild) {
    for (const [what, text, key] of CONTROLS) {
      const button = box.appendChild(el("button"));
      button.dataset.do = what;
      button.appendChild(el("span", "text", text));
      if (key) button.appendChild(el("kbd", "", key));
      button.onclick = () => (what === "play" ? togglePlay(view) : act(view, what));
    }
  }
  for (const button of box.children) button.disabled = !can(data, button.dataset.do) && !(button.dataset.do === "play" && view.playing);
  const hide = box.querySelector("[data-do='hide']");
  hide.querySelector(".text").textContent = data.hidden ? "Reveal the oracle" : "Hide the oracle";
  hide.classList.toggle("primary", Boolean(data.hidden));
  hide.title = "Hide costs, verdicts and the gold arcs so the class can think first (key H)";
  const play = box.querySelector("[data-do='play']");
  play.querySelector(".text").textContent = view.playing ? "⏹ Stop" : "▶ Play";
  play.classList.toggle("primary", Boolean(view.playing));
  const step = data.oracle || {};
  play.title = `Let ${step.player} make one move after another`;
  box.querySelector("[data-do='oracle']").title = step.move ? `Play ${step.player}'s move: ${step.move} (key O)` : "";
}

// A click of the learner's own stops Play.
function act(view, what) {
  stopPlay(view, what);
  send(view, { do: what });
}

function togglePlay(view) {
  if (view.playing) {
    stopPlay(view, "Stop");
  } else {
    view.playing = true;
    view.root.dataset.play = "on";
    send(view, { do: "oracle" });
  }
  drawControls(view, view.root.querySelector(".controls"), view.data);
}

// The board's data-play says whether Play is on and, once off, what stopped it.
function stopPlay(view, why) {
  if (view.playing) view.root.dataset.play = `stopped by ${why}`;
  view.playing = false;
  clearTimeout(view.timer);
}

// While playing, each new board asks for the next move after the chosen pause; none left: stop.
function keepPlaying(view, data) {
  clearTimeout(view.timer);
  if (!view.playing) return;
  if (!can(data, "oracle")) {
    stopPlay(view, "the end of the parse");
    drawControls(view, view.root.querySelector(".controls"), data);
    return;
  }
  view.timer = setTimeout(() => send(view, { do: "oracle" }), 1000 * (data.oracle.seconds || 1));
}

function controlOf(view, key) {
  const found = CONTROLS.find(([, , k]) => k && k === key);
  return found && can(view.data, found[0]) ? found[0] : null;
}

function moveOf(button, item) {
  const select = button.parentElement.querySelector("select");
  return select ? `${item.kind}:${select.value}` : item.move;
}

function onKey(event) {
  if (event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.composedPath()[0];
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName || ""))) return;
  const views = [...KEYS.boards].filter((v) => v.host.isConnected);
  const view = views.sort((a, b) => a.drawn - b.drawn).pop();  // the board drawn last
  if (!view) return;
  const key = event.key.toUpperCase();
  const control = controlOf(view, key);
  if (control) {
    event.preventDefault();
    act(view, control);
    return;
  }
  const item = view.data.moves.find((m) => m.key === key);
  if (!item || item.reason) return;
  event.preventDefault();
  const button = view.root.querySelector(`.moves [data-kind="${item.kind}"]`);
  stopPlay(view, `key ${key}`);
  send(view, { do: "move", move: moveOf(button, item) });
}

// -- drawing ---------------------------------------------------------------------------------
function drawMoves(view, box, data) {
  box.replaceChildren();
  box.classList.toggle("many", data.moves.length > 3);  // four or five moves: their kinds only
  for (const item of data.moves) {
    const cell = box.appendChild(el("div", "move"));
    const button = cell.appendChild(el("button"));
    button.dataset.kind = item.kind;
    button.appendChild(el("span", "kind", item.kind));
    button.appendChild(el("span", "name", ` · ${item.name}`));
    if (item.cost !== null) {
      const cost = button.appendChild(el("span", "cost", item.cost));
      cost.style.cssText = item.style;
    }
    if (item.key) button.appendChild(el("kbd", "", item.key));
    button.disabled = Boolean(item.reason);
    button.title = item.reason ? `Not possible: ${item.reason}` : `Play ${item.name} (key ${item.key})`;
    button.onclick = () => {
      stopPlay(view, `a click on ${item.kind}`);
      send(view, { do: "move", move: moveOf(button, item) });
    };
    if (item.labels) cell.appendChild(labelPicker(item));
  }
}

function labelPicker(item) {
  const select = el("select");
  select.setAttribute("aria-label", `label of ${item.kind}`);
  for (const label of item.labels) select.appendChild(el("option", "", label)).value = label;
  select.value = item.label;
  return select;
}

function drawTable(box, table, onRow) {
  box.replaceChildren();
  if (!table) return null;
  const grid = box.appendChild(el("table"));
  const head = grid.appendChild(el("thead")).appendChild(el("tr"));
  for (const title of table.columns) head.appendChild(el("th", "", title));
  const body = grid.appendChild(el("tbody"));
  table.rows.forEach((row, i) => {
    const tr = body.appendChild(el("tr"));
    const cells = row.cells || row;
    for (const text of cells) tr.appendChild(el("td", "", text));
    if (row.style) tr.style.cssText = row.style;
    if (onRow) onRow(tr, i);
  });
  return grid;
}

function drawMemory(box, memory, legend) {
  box.replaceChildren();
  for (const [title, tokens, mark] of [["stack σ", memory.stack, "top"], ["buffer β", memory.buffer, "front"]]) {
    const line = box.appendChild(el("div", "line"));
    line.appendChild(el("span", "title", title));
    const words = line.appendChild(el("span", "words"));
    tokens.forEach(([word, index], i) => {
      const at = mark === "top" ? i === tokens.length - 1 : i === 0;
      const chip = words.appendChild(el("span", at ? "word at" : "word", word));
      chip.dataset.token = index;
      chip.appendChild(el("sub", "", String(index)));
      if (at) chip.title = mark === "top" ? "▲ top" : "▲ front";
    });
    if (!tokens.length) words.appendChild(el("span", "empty", "empty"));
  }
  drawLegend(box.appendChild(el("div", "arc-legend")), legend);
}

// The history keeps its rows between redraws and rewrites only those that changed: a move adds a
// row and moves the marks, and the rows before it stay as they are.
function historyTable(box, columns) {
  let grid = box.querySelector("table");
  if (grid && grid.dataset.columns === columns.join("\u0001")) return grid;
  box.replaceChildren();
  grid = box.appendChild(el("table"));
  grid.dataset.columns = columns.join("\u0001");
  const head = grid.appendChild(el("thead")).appendChild(el("tr"));
  for (const title of columns) head.appendChild(el("th", "", title));
  grid.appendChild(el("tbody"));
  return grid;
}

function drawHistory(view, box, history) {
  const body = historyTable(box, history.columns).tBodies[0];
  history.rows.forEach((row, i) => {
    let tr = body.rows[i];
    if (!tr) {
      tr = body.appendChild(el("tr"));
      tr.title = `Jump to row ${i + 1}`;
      tr.onclick = () => {
        stopPlay(view, `a click on row ${i + 1}`);
        send(view, { do: "jump", step: i });
      };
    }
    const text = row.join("\u0001");
    if (tr.dataset.text !== text) {
      tr.replaceChildren(...row.map((cell) => el("td", "", cell)));
      tr.dataset.text = text;
    }
    tr.className = i === history.cursor ? "now" : i > history.cursor ? "undone" : "";
  });
  while (body.rows.length > history.rows.length) body.lastElementChild.remove();
  afterLayout(view, "history", () => showNow(box));
}

// The current row in view (read once the frame's layout is done: reading it while drawing would
// make the browser lay the board out twice).
function showNow(box) {
  const now = box.querySelector("tr.now");
  if (now && (now.offsetTop < box.scrollTop || now.offsetTop + now.offsetHeight > box.scrollTop + box.clientHeight)) {
    box.scrollTop = now.offsetTop + now.offsetHeight - box.clientHeight + 4;
  }
}

// Run ``job`` at the next frame, once however often it is asked for before then.
function afterLayout(view, name, job) {
  view.jobs = view.jobs || new Map();
  if (!view.jobs.size) {
    requestAnimationFrame(() => {
      const jobs = [...view.jobs.values()];
      view.jobs.clear();
      for (const run of jobs) run();
    });
  }
  view.jobs.set(name, job);
}

// A picture a little wider than its column (up to FIT times) is drawn to the column's width, so a
// 12-token sentence needs no sideways scrolling on a laptop; a wider one keeps its size and scrolls.
const FIT = 1.2;

function fit(box, width) {
  const svg = box.querySelector("svg");
  if (!svg) return;
  const natural = parseFloat(svg.getAttribute("width"));
  const shrink = natural > width && natural <= FIT * width;
  if ((svg.style.width === "100%") !== shrink) {
    svg.style.width = shrink ? "100%" : "";
    svg.style.height = shrink ? "auto" : "";
  }
}

// The column's width comes from a ResizeObserver (told after layout, never asked during drawing);
// a new picture is fitted to the width last told.
function watchWidth(box) {
  if (box.__fitting) return;
  box.__fitting = new ResizeObserver(([entry]) => {
    box.__width = entry.contentRect.width;
    fit(box, box.__width);
  });
  box.__fitting.observe(box);
}

function drawLegend(box, kinds) {
  box.replaceChildren();
  for (const [sample, colour, meaning] of kinds) {
    const item = box.appendChild(el("span", "item"));
    item.appendChild(el("span", "sample", sample)).style.color = colour;
    item.appendChild(el("span", "", ` ${meaning}`));
  }
}

function drawScore(box, score) {
  box.replaceChildren();
  for (const [what, value] of score) {
    const metric = box.appendChild(el("div", "metric"));
    metric.appendChild(el("span", "what", what));
    metric.appendChild(el("span", "value", value));
  }
}

// Why the system cannot build the gold tree, and a button to switch to one that can.
function drawUnbuildable(view, box, note) {
  box.replaceChildren();
  if (!note) return;
  const p = box.appendChild(el("p"));
  p.appendChild(el("strong", "", note.title));
  const rest = p.appendChild(el("span"));
  linkTerms(rest, ` ${note.text}`, []);
  linkTerms(p.firstChild, note.title, note.terms || []);
  if (note.switch) {
    const button = p.appendChild(el("button", "switch", `Switch to ${note.switch}`));
    button.title = `${note.switch} can build this tree`;
    button.onclick = () => act(view, "switch");
  }
}

function drawRules(box, rules) {
  box.hidden = !rules;
  if (!rules) return;
  box.querySelector("summary").textContent = rules.title;
  drawTable(box.querySelector(".rules-table"), rules.table);
  box.querySelector(".rules-note").textContent = rules.note;
}

// -- motion ----------------------------------------------------------------------------------
// A move can be shown as it happens: the word that changes sides slides from the buffer to the
// stack (or back), and an arc the move builds is drawn from its head to its dependent.  Off until
// the learner turns it on (the setting under the board, remembered by the browser): the frames of
// a 0.4 s motion cost a computer without a graphics card about as much as the click itself.
const MOTION_MS = 400;
const ARC_FRAMES = 10;  // the arc grows in 10 steps, each a repaint of the picture
const MOTION_KEY = "parsing-board-motion";
const BUILT = new Set(["correct", "wrong", "built"]);  // the kinds of arcs the parser has built

function motionOn() {
  try { return localStorage.getItem(MOTION_KEY) === "on"; } catch (e) { return false; }
}

function drawMotion(view, box) {
  if (!box.firstChild) {
    const label = box.appendChild(el("label"));
    const input = label.appendChild(el("input"));
    input.type = "checkbox";
    label.append(" Show each move as it happens");
    label.title = "The word that moves slides to its new place; a new arc is drawn from its head";
    input.onchange = () => {
      try { localStorage.setItem(MOTION_KEY, input.checked ? "on" : "off"); } catch (e) { /* kept for this page */ }
      view.motion = input.checked;
    };
  }
  box.querySelector("input").checked = view.motion;
}

// The words of the picture, in their order (not their places: those change with each move).
function pictureWords(root) {
  return [...root.querySelectorAll(".picture .word-text")].map((t) => t.textContent).join("\u0001");
}

function lineOf(chip) {
  return chip.closest(".line").firstChild.textContent;  // "stack σ" or "buffer β"
}

// What the motion starts from: where each word of the stack and buffer is, which arcs are built,
// and which words the picture shows (another sentence, or the same words: nothing to move between).
function before(root) {
  const words = pictureWords(root);
  const chips = new Map([...root.querySelectorAll(".memory .word")]
    .map((c) => [c.dataset.token, { rect: c.getBoundingClientRect(), line: lineOf(c) }]));
  const built = new Set([...root.querySelectorAll(".picture g.arc")].filter((g) => BUILT.has(g.dataset.kind))
    .map((g) => `${g.dataset.head}>${g.dataset.dep}`));
  return { words, chips, built };
}

function move(root, was) {
  const words = pictureWords(root);
  if (!was.words || words !== was.words) return;  // a new sentence: nothing moved
  for (const chip of root.querySelectorAll(".memory .word")) {
    const old = was.chips.get(chip.dataset.token);
    if (!old || old.line === lineOf(chip)) continue;  // only a word that changed sides moves
    const now = chip.getBoundingClientRect();
    const dx = old.rect.left - now.left, dy = old.rect.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) < 1) continue;
    chip.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: MOTION_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
  }
  for (const arc of root.querySelectorAll(".picture g.arc")) {
    if (!BUILT.has(arc.dataset.kind) || was.built.has(`${arc.dataset.head}>${arc.dataset.dep}`)) continue;
    grow(arc);
  }
}

// The line is drawn from the head's end (the end at the words' foot: the other stops above the
// arrowhead), then the arrowhead and the label appear.
function grow(arc) {
  const line = arc.querySelector(".arc-line");
  const [, startY] = (line.getAttribute("d").match(/^M[\d.-]+,([\d.-]+)/) || []).map(Number);
  const endY = Number((line.getAttribute("d").match(/V([\d.-]+)$/) || [])[1]);
  const fromStart = startY >= endY;
  const dashes = line.getAttribute("stroke-dasharray");
  line.setAttribute("pathLength", "1");
  line.setAttribute("stroke-dasharray", "1 1");
  const drawing = line.animate([{ strokeDashoffset: fromStart ? 1 : -1 }, { strokeDashoffset: 0 }],
    { duration: MOTION_MS, easing: `steps(${ARC_FRAMES}, end)` });
  drawing.onfinish = drawing.oncancel = () => {
    line.removeAttribute("pathLength");
    if (dashes) line.setAttribute("stroke-dasharray", dashes); else line.removeAttribute("stroke-dasharray");
  };
  for (const part of arc.querySelectorAll(".arrowhead, .arc-label")) {
    part.animate([{ opacity: 0 }, { opacity: 1 }], { duration: MOTION_MS, easing: "steps(1, end)" });
  }
}

// Each part of the board with the data it is drawn from: a part whose data did not change since
// the last drawing is left as it is (a move changes the picture, the memory, the moves, the costs
// and the history, not the legend, the keys or the rules' table).
const PARTS = {
  unbuildable: [(d) => d.unbuildable, (view, root, d) => drawUnbuildable(view, root.querySelector(".unbuildable"), d.unbuildable)],
  picture: [(d) => d.picture, (view, root, d) => {
    const box = root.querySelector(".picture");
    box.innerHTML = d.picture;  // SVG text, escaped by its drawing
    watchWidth(box);
    if (box.__width !== undefined) fit(box, box.__width);
  }],
  // The note of a tree the system cannot build says what the caption would (a non-projective
  // tree), and the picture shows the words: with a note, no caption, and the cost table stays
  // on a laptop's screen.
  caption: [(d) => [d.caption, Boolean(d.unbuildable)], (view, root, d) => {
    root.querySelector(".caption").textContent = d.unbuildable ? "" : d.caption;
  }],
  notes: [(d) => d.notes, (view, root, d) => root.querySelector(".notes").replaceChildren(...d.notes.map(([kind, text]) => el("p", kind, text)))],
  mistake: [(d) => d.mistake, (view, root, d) => { root.querySelector(".mistake").textContent = d.mistake; }],
  memory: [(d) => [d.memory, d.legend_arcs], (view, root, d) => drawMemory(root.querySelector(".memory"), d.memory, d.legend_arcs)],
  controls: [(d) => [d.controls, d.hidden, d.oracle], (view, root, d) => drawControls(view, root.querySelector(".controls"), d)],
  moves: [(d) => d.moves, (view, root, d) => drawMoves(view, root.querySelector(".moves"), d)],
  hidden: [(d) => d.hidden, (view, root, d) => {
    root.querySelector(".hidden-note").textContent = d.hidden
      ? "The oracle is hidden: what would you play next?  Reveal it (key H) to see every move's cost." : "";
  }],
  costs: [(d) => d.table, (view, root, d) => drawTable(root.querySelector(".costs"), d.table)],
  legend: [(d) => [d.legend, d.terms], (view, root, data) => linkTerms(root.querySelector(".legend"), data.legend, data.terms || [])],
  keys: [(d) => d.keys, (view, root, d) => {
    root.querySelector(".keys").textContent = d.keys
      ? `Keys: ${d.keys} · U undo · Y redo · O oracle step · H hide or reveal the oracle` : "";
  }],
  motion: [() => true, (view, root) => drawMotion(view, root.querySelector(".motion"))],
  score: [(d) => d.score, (view, root, d) => drawScore(root.querySelector(".score"), d.score)],
  history: [(d) => d.history, (view, root, d) => drawHistory(view, root.querySelector(".history"), d.history)],
  rules: [(d) => d.rules, (view, root, d) => drawRules(root.querySelector(".rules"), d.rules)],
};

function draw(view, data) {
  const root = view.root;
  if (view.motion === undefined) view.motion = motionOn();
  const was = view.motion && view.drawnFrom ? before(root) : null;
  root.classList.toggle("presenter", data.presenter);
  root.classList.toggle("oracle-hidden", data.hidden);
  view.drawnFrom = view.drawnFrom || {};
  for (const [name, [from, drawPart]] of Object.entries(PARTS)) {
    const text = JSON.stringify(from(data) ?? null);
    if (view.drawnFrom[name] === text) continue;
    view.drawnFrom[name] = text;
    drawPart(view, root, data);
  }
  if (was) move(root, was);
  keepPlaying(view, data);
}

const DECODER = new TextDecoder();

// The board's data: JSON bytes (or, from an older page, the data itself).
function textOf(raw) {
  if (raw instanceof Uint8Array || raw instanceof ArrayBuffer) return DECODER.decode(raw);
  return typeof raw === "string" ? raw : JSON.stringify(raw);
}

// A board's data as JSON text, from the page or from a quick click's answer.  Streamlit may hand
// over an older board after a newer one (and hands the page's last one again at each rerun, after
// quick clicks drew newer ones): the newest state of a session drawn stays (a session rebuilt on
// another server has another id: its boards are taken).
function receive(view, text) {
  if (text === view.text) return;  // the same board sent again (a rerun elsewhere on the page)
  const data = JSON.parse(text);
  const older = view.data && data.session === view.data.session && data.version < view.data.version;
  if (older) return;
  const first = view.data === undefined;
  view.text = text;
  view.data = data;
  waiting(view, false);
  draw(view, view.data);
  if (first) resend(view);
}

export default function (component) {
  const { data: raw, parentElement, setTriggerValue } = component;
  const view = parentElement.__board || (parentElement.__board = { root: build(parentElement) });
  view.host = parentElement.host || parentElement;
  view.send = setTriggerValue;
  view.drawn = performance.now();
  const text = textOf(raw);
  if (text !== view.given) {
    view.given = text;
    receive(view, text);
  }
  KEYS.boards.add(view);
  if (!KEYS.on) {
    document.addEventListener("keydown", onKey);
    KEYS.on = true;
  }
  return () => KEYS.boards.delete(view);
}
