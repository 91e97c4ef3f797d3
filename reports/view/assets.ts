// The stylesheet of `bench view`, shipped in the package and served from /assets/view.css (no CDN, no inline style).
export const VIEW_CSS = `
:root { --fg: #1d232b; --muted: #5d6874; --line: #d9dee4; --held: #2f9e62; --empty: #e3e7ec; --ev: #d97706; --bad: #c0392b; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0; background: #fafbfc; }
nav { padding: 8px 20px; background: #24303c; color: #cfd8e1; }
nav a { color: #fff; }
main { padding: 12px 20px 40px; max-width: 1500px; }
footer { padding: 8px 20px; color: var(--muted); font-size: 12px; }
h1 { font-size: 20px; margin: 8px 0 12px; }
h2 { font-size: 16px; margin: 20px 0 8px; }
h3 { font-size: 13px; margin: 0 0 4px; font-weight: 600; }
a { color: #1f5fa8; }
table { border-collapse: collapse; background: #fff; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: #eef1f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.text { max-width: 380px; overflow-wrap: anywhere; }
.meta, .note, .ci, .n, .range { color: var(--muted); }
.bad { color: var(--bad); font-weight: 600; }
.warn { color: var(--ev); }
.score { font-weight: 600; }
.filters .filter { margin-right: 8px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid var(--line); padding: 8px; margin: 4px 0; font: 12.5px/1.4 ui-monospace, Menlo, Consolas, monospace; }
pre.memory.compact { max-height: 260px; overflow: auto; }
pre.raw { max-height: 200px; overflow: auto; }
ins { background: #d4f4dd; text-decoration: none; }
del { background: #fbdada; }
dl.outcome { display: grid; grid-template-columns: 120px 1fr; gap: 2px 12px; margin: 0; }
dl.outcome dt { color: var(--muted); }
dl.outcome dd { margin: 0; }
.prediction { font-weight: 600; }
.status-error, .status-truncated { color: var(--bad); }
.timeline { display: flex; flex-wrap: wrap; gap: 1px; margin: 8px 0; max-width: 1200px; }
.timeline a { display: block; width: 10px; height: 18px; background: var(--empty); border-bottom: 3px solid transparent; }
.timeline a.held { background: var(--held); }
.timeline a.evidence { border-bottom-color: var(--ev); }
.timeline a.current { outline: 1px solid #24303c; }
.legend .key { display: inline-block; width: 10px; height: 12px; vertical-align: middle; margin: 0 2px 0 10px; }
.legend .key.held { background: var(--held); }
.legend .key.empty { background: var(--empty); }
.legend .key.evidence { background: var(--ev); }
.step { margin: 10px 0; padding: 6px 8px; border-left: 3px solid var(--line); }
.step.evidence { border-left-color: var(--ev); }
.badge { display: inline-block; font-size: 11px; font-weight: 500; padding: 0 6px; border-radius: 8px; background: var(--empty); margin-left: 4px; }
.badge.held { background: #cdeedb; }
.badge.evidence { background: #fde2bf; }
.badge.entered { background: var(--held); color: #fff; }
.badge.left { background: var(--bad); color: #fff; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.side { min-width: 0; }
figure { margin: 12px 0; background: #fff; border: 1px solid var(--line); padding: 8px; max-width: 1100px; }
figure img { max-width: 100%; height: auto; }
figcaption { white-space: pre-wrap; color: var(--muted); font-size: 12.5px; }
section.run { margin-bottom: 24px; }
`;
