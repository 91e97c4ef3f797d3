// The pages of `bench view`, rendered on the server as plain HTML: every string from a run (questions, answers,
// model output, memories, ids, file names) goes through escapeHtml, and pages carry no script and no inline style,
// so the Content-Security-Policy can forbid both (reports/view/server.ts).
import { escapeHtml as h } from '../html/escape.js';
import { fmtPct, fmtScore, modelLabel } from '../format.js';
import { fmtInterval } from '../intervals.js';
import { recordValue } from '../paired.js';
import { recordKey } from '../../harness/run-dir/record-key.js';
import type { SampleRecord } from '../../harness/types.js';
import type { SummaryRow } from '../summary.js';
import { wordDiff } from './diff.js';
import type { MemoryStep } from './memory-index.js';
import type { ViewRun } from './run-data.js';

/** Memory steps per page of a sample (a 3.5M-token sample has ~720). */
export const STEPS_PER_PAGE = 25;
/** Sample rows per page of a cell. */
export const ROWS_PER_PAGE = 100;
/** Characters of a prediction or gold shown in a table cell. */
const CELL_CHARS = 160;

export type SampleFilter = 'all' | 'wrong' | 'errors' | 'over-target';
export const FILTERS: readonly SampleFilter[] = ['all', 'wrong', 'errors', 'over-target'];

/** A query string from pairs, each value URI-encoded (and the whole escaped where it goes into an attribute). */
export function query(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

const link = (href: string, text: string, cls = '') =>
  `<a href="${h(href)}"${cls ? ` class="${cls}"` : ''}>${h(text)}</a>`;

const cut = (s: string | null | undefined, n = CELL_CHARS) => {
  const t = s ?? '';
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

export function layout(title: string, body: string, crumbs: Array<[string, string]> = []): string {
  const nav = [link('/', 'runs'), ...crumbs.map(([href, text]) => (href ? link(href, text) : h(text)))].join(' › ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${h(title)} · bench view</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/view.css"></head>
<body><nav>${nav}</nav><main>
${body}
</main><footer>bench view · read-only · served on 127.0.0.1 only</footer></body></html>`;
}

function modelLine(run: ViewRun): string {
  const m = run.manifest?.model;
  return m ? h(modelLabel(m.id, m.isReferenceReader)) : '<i>no manifest.json</i>';
}

/** Rows the grid shows: one per task × length × method (no breakdown or average rows). */
function gridRows(run: ViewRun): SummaryRow[] {
  return run.rows.filter((r) => r.lengthKind !== 'bucket' && !r.aggregate);
}

const cellHref = (run: ViewRun, r: Pick<SummaryRow, 'task' | 'lengthLabel' | 'method'>, filter?: SampleFilter) =>
  `/run/${run.index}/cell${query({ task: r.task, length: r.lengthLabel, method: r.method, filter })}`;

function scoreCell(run: ViewRun, r: SummaryRow): string {
  const flags = [
    r.errors ? `<span class="bad">${r.errors} err</span>` : '',
    r.truncated ? `<span class="bad">${r.truncated} trunc</span>` : '',
    r.overTarget ? `<span class="warn">${r.overTarget} over</span>` : '',
    r.complete === false ? `<span class="warn">n of ${r.expected}</span>` : '',
  ].filter(Boolean);
  return `<a class="score" href="${h(cellHref(run, r))}">${fmtScore(r)}</a> <span class="ci">[${h(fmtInterval(r))}]</span> <span class="n">n=${r.n}</span>${flags.length ? ` ${flags.join(' ')}` : ''}`;
}

/** task × length rows, one column per method: the score ×100, its 95% interval, n and any errors. */
export function gridTable(run: ViewRun): string {
  const rows = gridRows(run);
  if (rows.length === 0) return '<p>No finished samples.</p>';
  const methods = [...new Set(rows.map((r) => r.method))];
  const keys: Array<{ task: string; length: string }> = [];
  for (const r of rows)
    if (!keys.some((k) => k.task === r.task && k.length === r.lengthLabel))
      keys.push({ task: r.task, length: r.lengthLabel });
  const body = keys
    .map((k) => {
      const cells = methods.map((m) => {
        const r = rows.find((x) => x.task === k.task && x.lengthLabel === k.length && x.method === m);
        return `<td>${r ? scoreCell(run, r) : '–'}</td>`;
      });
      return `<tr><th>${h(k.task)}</th><td>${h(k.length)}</td>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<table class="grid"><thead><tr><th>task</th><th>length</th>${methods.map((m) => `<th>${h(m)}</th>`).join('')}</tr></thead><tbody>
${body}
</tbody></table>`;
}

export function runListPage(runs: readonly ViewRun[]): string {
  const sections = runs.map(
    (run) => `<section class="run">
<h2>${link(`/run/${run.index}/`, run.name)}</h2>
<p class="meta">${h(run.dir)} · model ${modelLine(run)} · ${run.records.length} sample records${
      run.charts.length ? ` · ${link(`/run/${run.index}/charts`, `${run.charts.length} charts`)}` : ''
    }</p>
${gridTable(run)}
</section>`,
  );
  return layout(
    'runs',
    `<h1>Runs</h1>
<p class="note">Scores ×100 (an errored sample counts 0) with their 95% interval; click a score for its samples.</p>
${sections.join('\n')}`,
  );
}

export function runPage(run: ViewRun): string {
  const m = run.manifest;
  const warnings = run.warnings.map((w) => `<li>${h(w)}</li>`).join('');
  return layout(
    run.name,
    `<h1>${h(run.name)}</h1>
<p class="meta">${h(run.dir)} · model ${modelLine(run)}${m ? ` · seed ${h(m.seed)} · tokenizer ${h(m.tokenizer)}` : ''}</p>
${m ? `<p class="command"><code>${h(m.command)}</code></p>` : ''}
${warnings ? `<ul class="warnings">${warnings}</ul>` : ''}
${gridTable(run)}
<h2>Charts</h2>
${chartsHtml(run)}`,
    [['', run.name]],
  );
}

function chartsHtml(run: ViewRun): string {
  if (run.charts.length === 0)
    return `<p>No charts in this run directory yet: <code>bench report ${h(run.dir)}</code> writes them.</p>`;
  return run.charts
    .map(
      (c) =>
        `<figure><img src="${h(`/run/${run.index}/file/${c.file}`)}" alt="${h(c.caption.split('\n')[0])}"><figcaption>${h(c.caption)}</figcaption></figure>`,
    )
    .join('\n');
}

export function chartsPage(run: ViewRun): string {
  return layout(`${run.name}: charts`, `<h1>Charts of ${h(run.name)}</h1>\n${chartsHtml(run)}`, [
    [`/run/${run.index}/`, run.name],
    ['', 'charts'],
  ]);
}

function passes(r: SampleRecord, filter: SampleFilter): boolean {
  if (filter === 'wrong') return r.status === 'error' || r.status === 'truncated' || !(r.score >= 1);
  if (filter === 'errors') return r.status === 'error' || r.status === 'truncated';
  if (filter === 'over-target') return r.status === 'over-target';
  return true;
}

export function cellRecords(run: ViewRun, task: string, length: string, method: string): SampleRecord[] {
  return run.records
    .filter((r) => r.task === task && r.lengthLabel === length && r.method === method)
    .sort((a, b) => a.index - b.index);
}

const sampleHref = (run: ViewRun, r: Pick<SampleRecord, 'id' | 'method'>, from?: number) =>
  `/run/${run.index}/sample${query({ id: r.id, method: r.method, from })}`;

function retentionText(r: SampleRecord): string {
  const m = r.memory;
  if (!m) return '–';
  if (m.capturedAt === null) return 'never held';
  return `in at ${m.capturedAt}${m.lostAt === null ? '' : `, lost at ${m.lostAt}`}`;
}

export function cellPage(
  run: ViewRun,
  cell: { task: string; length: string; method: string },
  filter: SampleFilter,
  page: number,
): string {
  const all = cellRecords(run, cell.task, cell.length, cell.method);
  const shown = all.filter((r) => passes(r, filter));
  const pages = Math.max(1, Math.ceil(shown.length / ROWS_PER_PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const rows = shown.slice(p * ROWS_PER_PAGE, (p + 1) * ROWS_PER_PAGE);
  const filters = FILTERS.map((f) => {
    const n = all.filter((r) => passes(r, f)).length;
    const text = `${f === 'all' ? 'all' : f === 'wrong' ? 'wrong only' : f} (${n})`;
    return f === filter
      ? `<b class="filter">${h(text)}</b>`
      : link(cellHref(run, { ...cell, lengthLabel: cell.length }, f), text, 'filter');
  }).join(' ');
  const body = rows
    .map(
      (r) =>
        `<tr class="status-${h(r.status)}"><td>${link(sampleHref(run, r), String(r.index))}</td><td>${h(r.status)}${
          r.error ? ` <span class="bad" title="${h(r.error)}">!</span>` : ''
        }</td><td class="num">${fmtPct(recordValue(r))}</td><td class="text">${h(cut(r.prediction))}</td><td class="text">${h(
          cut(r.answers.join(' | ')),
        )}</td><td class="num">${r.builtTokens}</td><td class="num">${r.calls}</td><td>${h(retentionText(r))}</td></tr>`,
    )
    .join('\n');
  const pager =
    pages > 1
      ? `<p class="pager">page ${p + 1} of ${pages} ${p > 0 ? link(`${cellHref(run, { ...cell, lengthLabel: cell.length }, filter)}&page=${p - 1}`, '‹ previous') : ''} ${
          p < pages - 1
            ? link(`${cellHref(run, { ...cell, lengthLabel: cell.length }, filter)}&page=${p + 1}`, 'next ›')
            : ''
        }</p>`
      : '';
  const title = `${cell.task} · ${cell.length} · ${cell.method}`;
  return layout(
    title,
    `<h1>${h(title)}</h1>
<p class="filters">${filters}</p>
<p class="sample-count">${shown.length} of ${all.length} samples</p>
<table class="samples"><thead><tr><th>sample</th><th>status</th><th>score</th><th>prediction</th><th>gold</th><th>tokens</th><th>calls</th><th>memory held gold</th></tr></thead><tbody>
${body}
</tbody></table>
${pager}`,
    [
      [`/run/${run.index}/`, run.name],
      ['', title],
    ],
  );
}

/** Context tokens per window of a run's memory method (its --chunk-tokens, else MemAgent's 5,000). */
export function chunkTokensOf(run: ViewRun): number {
  const v = (run.manifest?.manifest.settings as Record<string, unknown> | undefined)?.['chunk-tokens'];
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isInteger(n) && n > 0 ? n : 5000;
}

function evidenceHtml(run: ViewRun, r: SampleRecord): string {
  if (!r.evidence?.length)
    return r.evidenceNote
      ? `<p>${h(r.evidenceNote)}</p>`
      : '<p>The generator did not record where the evidence lies for this sample.</p>';
  const chunk = chunkTokensOf(run);
  const rows = r.evidence
    .map((e) => {
      const first = Math.floor(e.start / chunk);
      const last = Math.floor((e.end - 1) / chunk);
      const where = r.builtTokens > 0 ? `${((100 * e.start) / r.builtTokens).toFixed(1)}%` : '–';
      return `<tr><td>${h(e.label)}</td><td class="num">${e.start}–${e.end}</td><td class="num">${where}</td><td class="num">${
        first === last ? first : `${first}–${last}`
      }</td></tr>`;
    })
    .join('\n');
  return `<table class="evidence"><thead><tr><th>evidence</th><th>tokens</th><th>depth</th><th>chunk</th></tr></thead><tbody>
${rows}
</tbody></table>
<p class="note">Document of ${r.builtTokens} tokens; chunks of ${chunk} tokens, counted from 0.</p>`;
}

/** One cell per chunk: whether the memory after it held the gold, evidence chunks marked; each links to its page. */
function timeline(run: ViewRun, r: SampleRecord, current: number): string {
  const m = r.memory;
  if (!m) return '';
  const ev = new Set(m.evidenceChunks);
  const cells = [...m.holds]
    .map((c, i) => {
      const cls = [
        c === '1' ? 'held' : 'empty',
        ev.has(i) ? 'evidence' : '',
        Math.floor(i / STEPS_PER_PAGE) === current ? 'current' : '',
      ]
        .filter(Boolean)
        .join(' ');
      const from = Math.floor(i / STEPS_PER_PAGE) * STEPS_PER_PAGE;
      return `<a class="${cls}" href="${h(`${sampleHref(run, r, from)}#chunk-${i}`)}" title="chunk ${i}${ev.has(i) ? ' (evidence)' : ''}${c === '1' ? ': holds the gold' : ''}"></a>`;
    })
    .join('');
  return `<div class="timeline" aria-label="memory over the chunks">${cells}</div>
<p class="legend"><span class="key held"></span> memory holds the gold <span class="key empty"></span> does not <span class="key evidence"></span> evidence chunk</p>`;
}

function diffHtml(before: string | null, after: string): string {
  if (before === null) return `<span class="same">${h(after)}</span>`;
  return wordDiff(before, after)
    .map((p) =>
      p.kind === 'same' ? h(p.text) : p.kind === 'added' ? `<ins>${h(p.text)}</ins>` : `<del>${h(p.text)}</del>`,
    )
    .join('');
}

function stepsHtml(run: ViewRun, r: SampleRecord, from: number, compact = false): { html: string; total: number } {
  const unit = recordKey(r);
  const index = run.memory();
  const total = index.count(unit);
  if (total === 0)
    return {
      html: r.memory
        ? '<p>This run kept no memory trace for this sample (run without <code>--no-memory-trace</code> to keep one).</p>'
        : '',
      total,
    };
  const { steps, before } = index.steps(unit, from, STEPS_PER_PAGE);
  const ev = new Set(r.memory?.evidenceChunks ?? []);
  const chunk = chunkTokensOf(run);
  let prev = before;
  const items = steps.map((s: MemoryStep) => {
    const badges = [
      ev.has(s.chunk) ? '<span class="badge evidence">evidence chunk</span>' : '',
      s.holds ? '<span class="badge held">holds the gold</span>' : '<span class="badge empty">no gold</span>',
      r.memory?.capturedAt === s.chunk ? '<span class="badge entered">gold entered</span>' : '',
      r.memory?.lostAt === s.chunk ? '<span class="badge left">gold left</span>' : '',
      s.unchanged ? '<span class="badge">unchanged</span>' : '',
    ].join(' ');
    const html = `<article class="step${ev.has(s.chunk) ? ' evidence' : ''}" id="chunk-${s.chunk}">
<h3>after chunk ${s.chunk} <span class="range">tokens ${s.chunk * chunk}–${Math.min(r.builtTokens, (s.chunk + 1) * chunk)}</span> · ${s.tokens} memory tokens ${badges}</h3>
${s.memory === null ? '<p class="note">This memory cannot be rebuilt: its line in memory.jsonl edits a memory the file does not hold.</p>' : `<pre class="memory${compact ? ' compact' : ''}">${diffHtml(prev, s.memory)}</pre>`}
</article>`;
    prev = s.memory;
    return html;
  });
  return { html: items.join('\n'), total };
}

function stepPager(href: (from: number) => string, from: number, total: number, r?: SampleRecord): string {
  if (total <= STEPS_PER_PAGE && !r) return '';
  const last = Math.floor((total - 1) / STEPS_PER_PAGE) * STEPS_PER_PAGE;
  const jumps: string[] = [];
  if (from > 0) jumps.push(link(href(0), '« first'), link(href(Math.max(0, from - STEPS_PER_PAGE)), '‹ previous'));
  if (from + STEPS_PER_PAGE < total)
    jumps.push(link(href(from + STEPS_PER_PAGE), 'next ›'), link(href(last), 'last »'));
  const m = r?.memory;
  const at = (c: number) => Math.floor(c / STEPS_PER_PAGE) * STEPS_PER_PAGE;
  if (m?.evidenceChunks.length)
    jumps.push(link(`${href(at(m.evidenceChunks[0]))}#chunk-${m.evidenceChunks[0]}`, 'first evidence chunk'));
  if (m?.capturedAt != null) jumps.push(link(`${href(at(m.capturedAt))}#chunk-${m.capturedAt}`, 'gold entered'));
  if (m?.lostAt != null) jumps.push(link(`${href(at(m.lostAt))}#chunk-${m.lostAt}`, 'gold left'));
  const to = Math.min(total, from + STEPS_PER_PAGE);
  return `<p class="pager">memory steps ${total ? from : 0}–${Math.max(0, to - 1)} of ${total} · ${jumps.join(' · ')}</p>`;
}

function outcomeHtml(r: SampleRecord): string {
  return `<dl class="outcome">
<dt>status</dt><dd class="status-${h(r.status)}">${h(r.status)}${r.error ? ` — ${h(r.error)}` : ''}</dd>
<dt>score</dt><dd>${fmtPct(recordValue(r))} (${h(r.metric)}${r.status === 'error' ? '; an error counts 0' : ''})</dd>
<dt>final answer</dt><dd class="prediction">${r.prediction === null ? '<i>none extracted</i>' : h(r.prediction)}</dd>
<dt>raw output</dt><dd><pre class="raw">${h(r.rawOutput)}</pre></dd>
<dt>calls · tokens</dt><dd>${r.calls} calls · ${r.usage.promptTokens} prompt + ${r.usage.completionTokens} completion tokens · context ${r.builtTokens} tokens</dd>
</dl>`;
}

function retentionSummary(r: SampleRecord): string {
  const m = r.memory;
  if (!m) return '';
  const entered =
    m.capturedAt === null
      ? 'The gold never entered the memory.'
      : `The gold first entered the memory after chunk ${m.capturedAt}.`;
  const left =
    m.capturedAt === null ? '' : m.lostAt === null ? ' It stayed to the end.' : ` It left after chunk ${m.lostAt}.`;
  const ev = m.evidenceChunks.length
    ? ` Evidence in chunk${m.evidenceChunks.length > 1 ? 's' : ''} ${m.evidenceChunks.join(', ')}.`
    : '';
  return `<p class="retention">${h(entered + left + ev)}</p>`;
}

export function samplePage(run: ViewRun, r: SampleRecord, from: number, runs: readonly ViewRun[]): string {
  const others = runs.flatMap((o) =>
    o.records.filter((x) => x.id === r.id && !(o === run && x.method === r.method)).map((x) => ({ run: o, r: x })),
  );
  const compare = others.length
    ? `<p class="compare">side by side with: ${others
        .map((o) =>
          link(
            `/compare${query({ id: r.id, a: `${run.index}:${r.method}`, b: `${o.run.index}:${o.r.method}`, from })}`,
            runs.length > 1 ? `${o.r.method} (${o.run.name})` : o.r.method,
          ),
        )
        .join(' · ')}</p>`
    : '';
  const steps = stepsHtml(run, r, from);
  const href = (f: number) => sampleHref(run, r, f);
  const title = `${r.id} · ${r.method}`;
  return layout(
    title,
    `<h1>${h(title)}</h1>
${compare}
<h2>Question</h2><pre class="question">${h(r.question)}</pre>
<h2>Gold</h2><ul class="gold">${r.answers.map((a) => `<li>${h(a)}</li>`).join('')}</ul>
<h2>Where the evidence lies</h2>
${evidenceHtml(run, r)}
<h2>Final answer</h2>
${outcomeHtml(r)}
${r.memory || steps.total ? `<h2>Memory after each chunk</h2>${retentionSummary(r)}${timeline(run, r, Math.floor(from / STEPS_PER_PAGE))}${stepPager(href, from, steps.total, r)}${steps.html}${stepPager(href, from, steps.total)}` : ''}`,
    [
      [`/run/${run.index}/`, run.name],
      [cellHref(run, r), `${r.task} · ${r.lengthLabel} · ${r.method}`],
      ['', String(r.index)],
    ],
  );
}

export function comparePage(
  id: string,
  sides: Array<{ run: ViewRun; r: SampleRecord }>,
  from: number,
  spec: { a: string; b: string },
): string {
  const href = (f: number) => `/compare${query({ id, a: spec.a, b: spec.b, from: f })}`;
  const total = Math.max(...sides.map((s) => s.run.memory().count(recordKey(s.r))));
  const columns = sides
    .map(({ run, r }) => {
      const steps = stepsHtml(run, r, from, true);
      return `<div class="side">
<h2>${link(sampleHref(run, r, from), `${r.method}`)} <span class="meta">${h(run.name)}</span></h2>
${outcomeHtml(r)}
${retentionSummary(r)}
${steps.html || (r.memory ? '' : '<p class="note">No memory: this method reads the context in one call.</p>')}
</div>`;
    })
    .join('\n');
  const first = sides[0].r;
  return layout(
    `${id}: side by side`,
    `<h1>${h(id)}: ${sides.map((s) => h(s.r.method)).join(' vs ')}</h1>
<h2>Question</h2><pre class="question">${h(first.question)}</pre>
<h2>Gold</h2><ul class="gold">${first.answers.map((a) => `<li>${h(a)}</li>`).join('')}</ul>
${total ? stepPager(href, from, total) : ''}
<div class="sides">${columns}</div>`,
    [['', `${id} side by side`]],
  );
}

export function errorPage(status: number, message: string): string {
  return layout(String(status), `<h1>${status}</h1><p>${h(message)}</p>`);
}
