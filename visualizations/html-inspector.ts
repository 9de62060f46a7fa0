/**
 * The flow inspector: one self-contained HTML file (inline CSS, inline script, inline SVG; no network) showing every
 * machine with its states, guarded transitions, tags and the commands each state runs. The charts are laid out
 * here, at generation time, so the page reads correctly even with scripts disabled; the script only adds
 * highlighting.
 * @module visualizations/html-inspector
 */
import type { FlowGraph, GuardOrigin } from './describe-machine.js'
import { escapeXml, renderMachineSvg } from './inspector-svg.js'

const styles = `
:root { --ink:#1a202c; --muted:#4a5568; --line:#a0aec0; --wait:#fff4ce; --wait-line:#b7791f; --out:#e6f0ff; --out-line:#2b6cb0; --app:#c05621; --ext:#6b46c1; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #f7fafc; }
header { position: sticky; top: 0; z-index: 2; background: #1a202c; color: #fff; padding: 10px 20px; display: flex; gap: 18px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 17px; margin: 0; }
header nav a { color: #bee3f8; margin-right: 12px; text-decoration: none; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
main { padding: 12px 20px 40px; }
section.machine { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; margin: 16px 0; padding: 12px 16px; }
section.machine h2 { margin: 0 0 4px; font-size: 18px; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
.meta { color: var(--muted); margin: 0 0 8px; }
.legend span { display: inline-block; margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid; vertical-align: -2px; margin-right: 4px; border-radius: 3px; }
.chart-box { overflow-x: auto; border: 1px solid #edf2f7; border-radius: 6px; background: #fcfdfe; }
svg.chart text { font: 11px ui-monospace, "DejaVu Sans Mono", Menlo, monospace; fill: var(--ink); }
svg.chart .state-name { font-weight: 700; font-size: 12px; }
svg.chart .state-description { fill: var(--muted); }
svg.chart .state-command { fill: #2c7a7b; }
svg.chart .state-tag { fill: var(--wait-line); }
svg.chart .state rect { fill: #fff; stroke: #4a5568; stroke-width: 1.2; cursor: pointer; }
svg.chart .state.awaiting rect { fill: var(--wait); stroke: var(--wait-line); }
svg.chart .state.final > rect { fill: var(--out); stroke: var(--out-line); }
svg.chart .state.final > rect.final-ring { fill: none; }
svg.chart .state.compound > rect { fill: #f7fafc; stroke-dasharray: 5 3; }
svg.chart .edge path { fill: none; stroke: var(--line); stroke-width: 1.3; }
svg.chart .edge.initial path { stroke: #2d3748; stroke-dasharray: 3 3; }
svg.chart .edge.app-guard path { stroke: var(--app); stroke-width: 1.8; }
svg.chart .edge.extension-guard path { stroke: var(--ext); }
svg.chart .edge.app-guard .edge-label { fill: var(--app); font-weight: 700; }
svg.chart .edge.extension-guard .edge-label { fill: var(--ext); }
svg.chart .label-bg { fill: #fff; opacity: .92; }
svg.chart .arrowhead { fill: #718096; }
svg.chart .initial-dot { fill: #1a202c; }
svg.chart.focused .edge, svg.chart.focused .state { opacity: .25; }
svg.chart.focused .edge.lit, svg.chart.focused .state.lit { opacity: 1; }
svg.chart .edge.lit path { stroke: #2b6cb0; stroke-width: 2.2; }
details { margin-top: 10px; }
summary { cursor: pointer; font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin-top: 6px; font-size: 13px; }
th, td { text-align: left; border-bottom: 1px solid #edf2f7; padding: 4px 8px; vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td code, .meta code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12px; }
tr.lit { background: #ebf8ff; }
svg.chart .state.visited > rect:first-of-type { stroke: #2f855a; stroke-width: 2; }
svg.chart .state.current > rect:first-of-type { fill: #c6f6d5; stroke: #22543d; stroke-width: 3.5; }
svg.chart .edge.taken path { stroke: #2f855a; stroke-width: 2.6; }
aside.live { background: #f0fff4; border: 1px solid #9ae6b4; border-radius: 8px; margin: 12px 0; padding: 8px 14px; }
aside.live h2 { font-size: 15px; margin: 0 0 4px; }
aside.live ol { margin: 4px 0; padding-left: 36px; max-height: 9.5em; overflow-y: auto; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12px; }
aside.live li.now { font-weight: 700; }
aside.live li.check { color: var(--muted); }
header #live-now { font-size: 13px; color: #c6f6d5; }
.origin-app { color: var(--app); font-weight: 700; }
.origin-extension { color: var(--ext); }
`

const script = `
for (const section of document.querySelectorAll('section.machine')) {
  const svg = section.querySelector('svg.chart');
  const rows = section.querySelectorAll('tr[data-state]');
  let current = null;
  const focus = (path) => {
    current = current === path ? null : path;
    svg.classList.toggle('focused', current !== null);
    for (const g of svg.querySelectorAll('.state')) g.classList.toggle('lit', g.dataset.state === current);
    for (const g of svg.querySelectorAll('.edge')) g.classList.toggle('lit', current !== null && (g.dataset.source === current || g.dataset.target === current));
    for (const row of rows) row.classList.toggle('lit', row.dataset.state === current);
  };
  for (const g of svg.querySelectorAll('.state')) {
    g.addEventListener('click', () => focus(g.dataset.state));
    g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); focus(g.dataset.state); } });
  }
  for (const row of rows) row.addEventListener('click', () => focus(row.dataset.state));
}
`

const originClass: Record<GuardOrigin, string> = {
  inline: '',
  named: '',
  extension: 'origin-extension',
  app: 'origin-app',
}

function code(text: string): string {
  return `<code>${escapeXml(text)}</code>`
}

function guardCell(graph: FlowGraph, transitionIndex: number): string {
  const t = graph.transitions[transitionIndex]
  if (!t.guard) return t.order > 0 ? '<em>otherwise</em>' : ''
  const notes = t.guard.refs
    .filter((r) => r.origin === 'app' || r.origin === 'extension')
    .map(
      (r) =>
        `<span class="${originClass[r.origin]}">${escapeXml(r.name)}: ${r.origin === 'app' ? "app's guard" : 'extension point (default)'}</span>`,
    )
  return [code(t.guard.text), ...notes].join('<br>')
}

function machineSection(graph: FlowGraph): string {
  const stateRows = graph.states.map(
    (s) =>
      `<tr data-state="${escapeXml(s.path)}"><td>${code(s.path)}</td><td>${escapeXml(s.type)}${s.tags.map((t) => `<br>${code(t)}`).join('')}</td><td>${[...s.entry.map((a) => `entry ${code(a.text)}`), ...s.invoke.map((i) => `invoke ${code(i)}`), ...s.exit.map((a) => `exit ${code(a.text)}`)].join('<br>')}</td><td>${escapeXml(s.description ?? '')}</td></tr>`,
  )
  const transitionRows = graph.transitions.map(
    (t, i) =>
      `<tr data-state="${escapeXml(t.source)}"><td>${code(t.source)}</td><td>${code(t.event)}</td><td>${guardCell(graph, i)}</td><td>${t.targets.map(code).join(', ') || '<em>stays</em>'}</td><td>${t.actions.map((a) => code(a.text)).join(', ')}</td></tr>`,
  )
  const extensionPoints = graph.extensionPoints.length > 0 ? graph.extensionPoints.map(code).join(', ') : 'none'
  return `<section class="machine" id="machine-${escapeXml(graph.machineId)}" data-machine="${escapeXml(graph.machineId)}" data-state-count="${graph.states.length}" data-transition-count="${graph.transitions.length}">
<h2>${escapeXml(graph.machineId)}</h2>
<p class="meta">version ${graph.version ?? 'n/a'} · ${graph.states.length} states · ${graph.transitions.length} transitions · extension points: ${extensionPoints}</p>
<div class="chart-box">
${renderMachineSvg(graph)}
</div>
<details open><summary>States: what each runs on entry</summary>
<table><thead><tr><th>state</th><th>type, tags</th><th>commands (callbacks, effects)</th><th>description</th></tr></thead><tbody>
${stateRows.join('\n')}
</tbody></table></details>
<details><summary>Transitions, in the order they are tried</summary>
<table><thead><tr><th>from</th><th>event</th><th>guard</th><th>to</th><th>actions</th></tr></thead><tbody>
${transitionRows.join('\n')}
</tbody></table></details>
</section>`
}

/**
 * The live view's script: polls the feed (same origin), lists the steps, and marks the state the newest flow is in
 * (`current`, scrolled into view) and, in each machine, the states and arrows its newest flow went through (`visited`,
 * `taken`). The feed answers `{ steps: [{ machine, flowId, from, to, event, at }] }`, oldest first.
 */
function liveScript(feedUrl: string, intervalMs: number): string {
  return `
(() => {
  const status = document.getElementById('live-status');
  const list = document.getElementById('live-steps');
  const now = document.getElementById('live-now');
  let shown = '';
  // The audit trail has one step per event: eventless ('always') hops in between are not steps of their own, so the
  // arrows of a step are the direct one or, failing that, the event's arrow followed by eventless ones (at most 4).
  const arrowsBetween = (section, from, to) => {
    const arrows = [...section.querySelectorAll('.edge[data-event]')];
    const direct = arrows.filter((g) => g.dataset.source === from && g.dataset.target === to);
    if (direct.length > 0) return direct;
    let paths = arrows.filter((g) => g.dataset.source === from).map((g) => [g]);
    for (let hops = 0; hops < 4 && paths.length > 0; hops++) {
      const found = paths.find((p) => p[p.length - 1].dataset.target === to);
      if (found) return found;
      paths = paths.flatMap((p) => arrows
        .filter((g) => g.dataset.event === 'always' && g.dataset.source === p[p.length - 1].dataset.target)
        .map((g) => [...p, g]));
    }
    return [];
  };
  const clear = () => {
    for (const el of document.querySelectorAll('.current, .visited, .taken')) el.classList.remove('current', 'visited', 'taken');
  };
  const render = (steps) => {
    const key = JSON.stringify(steps);
    if (key === shown) return;
    shown = key;
    clear();
    list.replaceChildren(...steps.map((s, i) => {
      const li = document.createElement('li');
      li.textContent = s.machine + ' ' + s.flowId + ': ' + s.from + ' --' + s.event + '--> ' + s.to;
      if (i === steps.length - 1) li.className = 'now';
      if (s.machine === 'session' && s.event === 'SESSION_REQUESTED') li.classList.add('check');
      return li;
    }));
    list.scrollTop = list.scrollHeight;
    // A page's session check (GET /session: the session machine started by SESSION_REQUESTED) runs after every sign-in
    // and on every page load; it must not take the current mark from the flow the person is following, so the
    // current mark is the newest step of any other flow, and a check's only when nothing else ran.
    const checks = new Set(steps.filter((s) => s.machine === 'session' && s.event === 'SESSION_REQUESTED').map((s) => s.flowId));
    const followed = steps.filter((s) => !checks.has(s.flowId));
    const last = followed[followed.length - 1] ?? steps[steps.length - 1];
    if (!last) { status.textContent = 'No flow yet in this browser: sign in in another tab and watch it here.'; return; }
    // Each machine shows the path of its newest flow; the newest step of all is the current state.
    const newest = new Map();
    for (const s of steps) newest.set(s.machine, s.flowId);
    for (const s of steps) {
      if (newest.get(s.machine) !== s.flowId) continue;
      const section = document.querySelector('section.machine[data-machine="' + CSS.escape(s.machine) + '"]');
      if (!section) continue;
      const states = new Set([s.from, s.to]);
      for (const g of arrowsBetween(section, s.from, s.to)) {
        g.classList.add('taken');
        states.add(g.dataset.source);
        states.add(g.dataset.target);
      }
      for (const g of section.querySelectorAll('.state')) if (states.has(g.dataset.state)) g.classList.add('visited');
    }
    const section = document.querySelector('section.machine[data-machine="' + CSS.escape(last.machine) + '"]');
    const state = section && [...section.querySelectorAll('.state')].find((g) => g.dataset.state === last.to);
    if (state) state.classList.add('current');
    document.body.dataset.currentMachine = last.machine;
    document.body.dataset.currentState = last.to;
    status.textContent = 'Flow ' + last.flowId + ' of the ' + last.machine + ' machine is in state ' + last.to + '.';
    if (now) now.textContent = last.machine + ': ' + last.to;
    if (state) state.scrollIntoView({ block: 'center', inline: 'center' });
  };
  const poll = async () => {
    try {
      const answer = await fetch(${jsonForScript(feedUrl)}, { cache: 'no-store', credentials: 'same-origin' });
      if (answer.ok) render((await answer.json()).steps ?? []);
    } catch { status.textContent = 'The live feed did not answer; retrying.'; }
    setTimeout(poll, ${Math.max(200, Math.floor(intervalMs))});
  };
  poll();
})();
`
}

/** Embeds data in a script element: `<` is escaped so no string in it can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

/** Options of `toInspectorHtml`. */
export interface InspectorOptions {
  /** Page title; defaults to "Authchart flow inspector". */
  title?: string
  /**
   * A live view: the page polls `feedUrl` (same origin; the page's Content-Security-Policy allows only that) every
   * `intervalMs` (default 1000) and highlights the state the newest flow is in. The feed answers
   * `{ steps: TransitionRecord[] }`, oldest first, for example what an `onTransition` hook collected for this browser.
   */
  live?: { feedUrl: string; intervalMs?: number }
}

/** The inspector page for the given machines. */
export function toInspectorHtml(graphs: readonly FlowGraph[], options: InspectorOptions = {}): string {
  const title = options.title ?? 'Authchart flow inspector'
  const live = options.live
  const connect = live ? "; connect-src 'self'" : ''
  const livePanel = live
    ? `<aside class="live" aria-live="polite"><h2>Live: this browser's flow</h2><p id="live-status">Waiting for the first answer of the live feed…</p><ol id="live-steps"></ol></aside>\n`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:${connect}">
<title>${escapeXml(title)}</title>
<style>${styles}</style>
</head>
<body>
<header><h1>${escapeXml(title)}</h1>${live ? '<span id="live-now" aria-hidden="true"></span>' : ''}<nav>${graphs.map((g) => `<a href="#machine-${escapeXml(g.machineId)}">${escapeXml(g.machineId)}</a>`).join('')}</nav></header>
<main>
${livePanel}<p class="legend"><span><i class="swatch" style="background:var(--wait);border-color:var(--wait-line)"></i>waits for the browser</span><span><i class="swatch" style="background:var(--out);border-color:var(--out-line)"></i>outcome (final)</span><span class="origin-extension">purple arrow: extension point</span><span class="origin-app">orange arrow: the app's own guard</span><span>click a state to follow its arrows</span></p>
${graphs.map(machineSection).join('\n')}
</main>
<script type="application/json" id="flow-graphs">${jsonForScript(graphs)}</script>
<script>${script}</script>
${live ? `<script>${liveScript(live.feedUrl, live.intervalMs ?? 1000)}</script>` : ''}
</body>
</html>
`
}
