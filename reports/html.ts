// Self-contained report.html: charts as data: URIs, every model output and question HTML-escaped, no scripts.
import type { ReportFacet } from '../harness/report/facet.js';
import type { SampleRecord } from '../harness/types.js';
import { aggregateNotes, breakdownLabels, breakdownNotes } from './breakdowns.js';
import type { Comparison } from './comparison.js';
import { fmtPct, modelLabel, REFERENCE_READER_LABEL } from './format.js';
import type { ManifestView } from './manifest.js';
import { CUT_CALLS_NOTE, CUT_NOTE, compareRows, type SummaryRow } from './summary.js';
import { fmtCount, INCOMPLETE_NOTE, missingNote, type MissingCell } from './completeness.js';
import { INTERVAL_NOTE, fmtInterval } from './intervals.js';

/** A chart embedded in the page (reports/charts writes them; this module only needs these fields). */
export interface EmbeddedChart {
  title: string;
  /** File name relative to the output directory (charts/…png). */
  name: string;
  png: Buffer;
}

export interface ReportRun {
  dir: string;
  manifest: ManifestView | null;
  records: number;
}

export interface ReportData {
  title?: string;
  runs: ReportRun[];
  rows: SummaryRow[];
  records: SampleRecord[];
  /** The families' report facets: they name the breakdown rows (and a sample's breakdown labels). */
  facets: readonly ReportFacet[];
  /** Charts to embed (one size per chart is enough; the slide size reads best in a browser). */
  charts: EmbeddedChart[];
  comparisons: Comparison[];
  warnings: string[];
  /** Cells the runs planned without a finished sample. */
  missing?: MissingCell[];
  /** Extra sections after the summary, already HTML (e.g. paired differences, reports/paired-report.ts). */
  sections?: string[];
}

export interface HtmlOptions {
  /** Per-sample rows shown at most (the rest are counted). Default 5000. */
  maxSampleRows?: number;
  /** Characters of a question, prediction or raw output shown before it is cut. Default 2000. */
  maxTextChars?: number;
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}

function table(head: string[], body: string[][], cls = '', rowClasses: string[] = []): string {
  const th = head.map((h) => `<th>${h}</th>`).join('');
  const tr = body
    .map(
      (row, i) =>
        `<tr${rowClasses[i] ? ` class="${rowClasses[i]}"` : ''}>${row.map((c) => `<td>${c}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${th}</tr></thead><tbody>\n${tr}\n</tbody></table>`;
}

function modelsLine(rows: SummaryRow[], runs: ReportRun[]): string {
  const models = new Map<string, boolean>();
  for (const r of rows) models.set(r.model, (models.get(r.model) ?? false) || r.isReferenceReader);
  for (const run of runs) {
    const m = run.manifest?.model;
    if (m?.id) models.set(m.id, (models.get(m.id) ?? false) || m.isReferenceReader === true);
  }
  if (models.size === 0) return '<p class="models">No samples.</p>';
  const items = [...models].map(
    ([id, ref]) => `<b>${escapeHtml(id)}</b>${ref ? ` — <span class="ref">${REFERENCE_READER_LABEL}</span>` : ''}`,
  );
  return `<p class="models">Model${models.size > 1 ? 's' : ''}: ${items.join('; ')}</p>`;
}

/** Records read, "of" the units the manifest planned (samples × methods) when fewer finished. */
function samplesOfRun(run: ReportRun): string {
  const units = run.manifest?.manifest.units;
  return typeof units === 'number' && run.records < units
    ? `${run.records.toLocaleString('en-US')} of ${units.toLocaleString('en-US')}`
    : String(run.records);
}

function runsSection(runs: ReportRun[]): string {
  const body = runs.map((run) => {
    const m = run.manifest;
    const versions = m?.versions
      ? Object.entries(m.versions)
          .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(', ')
      : '';
    const cells = [
      run.dir,
      m?.command ?? '',
      m?.tasks.join(', ') ?? '',
      m?.methods.join(', ') ?? '',
      m?.model?.id ? modelLabel(m.model.id, m.model.isReferenceReader) : '',
      m?.lengths.join(' ') ?? '',
      m?.seed === undefined ? '' : String(m.seed),
      m?.tokenizer ?? '',
      versions,
      samplesOfRun(run),
    ].map(escapeHtml);
    // Commit hashes and long paths may break anywhere; short cells keep their words whole.
    for (const i of [0, 1, 8]) cells[i] = `<span class="wrap">${cells[i]}</span>`;
    return cells;
  });
  return table(
    ['run', 'command', 'tasks', 'methods', 'model', 'lengths', 'seed', 'tokenizer', 'versions', 'samples'],
    body,
    'runs',
  );
}

/** Other metrics of a row: up to four inline; more go in a collapsed list behind the ROUGE recalls (or the first three). */
function otherMetrics(r: SummaryRow): string {
  const entries = Object.entries(r.metrics)
    .filter(([k]) => k !== r.metric)
    .map(([k, v]) => `${k} ${fmtPct(v)}`);
  if (entries.length <= 4) return escapeHtml(entries.join(' · '));
  const recalls = entries.filter((e) => /^rouge\w*_r /i.test(e));
  const head = (recalls.length ? recalls : entries).slice(0, 3);
  return `<details><summary>${escapeHtml(head.join(' · '))} …</summary>${escapeHtml(entries.join(' · '))}</details>`;
}

interface Column {
  head: string;
  cell: (r: SummaryRow) => string;
  /** Shown only when this holds for the rows (default: always). */
  show?: (rows: SummaryRow[]) => boolean;
}

const SUMMARY_COLUMNS: Column[] = [
  { head: 'task', cell: (r) => escapeHtml(r.task) },
  { head: 'method', cell: (r) => escapeHtml(r.method) },
  // One model: the line above the tables names it.
  {
    head: 'model',
    cell: (r) => escapeHtml(modelLabel(r.model, r.isReferenceReader)),
    show: (rows) => new Set(rows.map((r) => r.model)).size > 1,
  },
  {
    head: 'length',
    cell: (r) =>
      r.lengthKind === 'bucket' ? `<span class="sub">${escapeHtml(r.lengthLabel)}</span>` : escapeHtml(r.lengthLabel),
  },
  { head: 'metric', cell: (r) => escapeHtml(r.metric) },
  { head: 'score ×100', cell: (r) => `<b>${fmtPct(r.score)}</b>` },
  { head: 'ci95 ×100', cell: (r) => fmtInterval(r) },
  { head: 'ci_method', cell: (r) => escapeHtml(r.ci_method) },
  {
    head: 'n',
    cell: (r) => (r.complete === false ? `<span class="incomplete">${escapeHtml(fmtCount(r))}</span>` : String(r.n)),
  },
  { head: 'ok', cell: (r) => String(r.ok) },
  { head: 'errors', cell: (r) => String(r.errors) },
  { head: 'truncated', cell: (r) => String(r.truncated) },
  {
    head: 'context cut',
    cell: (r) => String(r.middleTruncated),
    show: (rows) => rows.some((r) => r.middleTruncated > 0),
  },
  { head: 'empty', cell: (r) => String(r.empty) },
  { head: 'ok-only ×100', cell: (r) => (r.scoreOkOnly === null ? '–' : fmtPct(r.scoreOkOnly)) },
  {
    head: 'other metrics ×100',
    cell: otherMetrics,
    show: (rows) => rows.some((r) => Object.keys(r.metrics).some((k) => k !== r.metric)),
  },
  { head: 'prompt tokens', cell: (r) => String(r.promptTokens) },
  { head: 'completion tokens', cell: (r) => String(r.completionTokens) },
  { head: 'calls', cell: (r) => String(r.calls) },
  // Calls whose answer ended on the length limit: always shown, so a run with none says 0.
  { head: 'cut calls', cell: (r) => String(r.cutCalls ?? 0) },
];

function summarySection(rows: SummaryRow[], missing: MissingCell[], facets: readonly ReportFacet[]): string {
  const columns = SUMMARY_COLUMNS.filter((c) => !c.show || c.show(rows));
  const notes = [
    rows.some((r) => r.complete === false) ? INCOMPLETE_NOTE : '',
    missingNote(missing),
    `ci95: ${INTERVAL_NOTE}`,
    rows.some((r) => r.middleTruncated > 0) ? CUT_NOTE : '',
    rows.some((r) => (r.cutCalls ?? 0) > 0) ? CUT_CALLS_NOTE : '',
    ...breakdownNotes(rows, facets),
    ...aggregateNotes(rows, facets),
  ]
    .filter(Boolean)
    .map((n) => `<p class="note">${escapeHtml(n)}.</p>`)
    .join('');
  return (
    table(
      columns.map((c) => c.head),
      rows.map((r) => columns.map((c) => c.cell(r))),
      'num',
      rows.map((r) => (r.lengthKind === 'bucket' ? 'bucket' : r.complete === false ? 'incomplete' : '')),
    ) + notes
  );
}

function chartsSection(charts: EmbeddedChart[]): string {
  if (charts.length === 0) return '<p>No charts for these runs.</p>';
  return charts
    .map(
      (c) =>
        `<figure><img alt="${escapeHtml(c.title)}" src="data:image/png;base64,${c.png.toString('base64')}">` +
        `<figcaption>${escapeHtml(c.title)} — <code>${escapeHtml(c.name)}</code></figcaption></figure>`,
    )
    .join('\n');
}

function comparisonSection(c: Comparison): string {
  const body = c.lines.map((l) => [
    `${l.source === 'ours' ? '<b>ours</b>: ' : ''}${escapeHtml(l.name)}`,
    ...l.values.map((v) => (v === null ? '–' : escapeHtml(v))),
  ]);
  return (
    `<h3>${escapeHtml(c.title)}</h3><p class="note">${escapeHtml(c.sourceNote)} ${escapeHtml(c.matchNote)}</p>` +
    table(['', ...c.columns.map(escapeHtml)], body, 'num')
  );
}

/** The sample's length label, with its breakdown labels (a LongBench-E bucket: "all · 4-8k"). */
function sampleLength(r: SampleRecord, facets: readonly ReportFacet[]): string {
  return [r.lengthLabel, ...breakdownLabels(r, facets)].join(' · ');
}

function samplesSection(records: SampleRecord[], facets: readonly ReportFacet[], opts: Required<HtmlOptions>): string {
  // In summary order (task, method, model, length), then by index: the file holds them in finishing order.
  const sorted = [...records].sort((a, b) => compareRows(a, b) || a.index - b.index);
  const shown = sorted.slice(0, opts.maxSampleRows);
  const manyModels = new Set(records.map((r) => r.model)).size > 1;
  const body = shown.map((r) => [
    escapeHtml(r.id),
    escapeHtml(r.method),
    ...(manyModels ? [escapeHtml(r.model)] : []),
    escapeHtml(sampleLength(r, facets)),
    `<span class="st-${escapeHtml(r.status)}">${escapeHtml(r.status)}</span>`,
    r.status === 'error' ? '0.00' : fmtPct(r.score),
    `<div class="q">${escapeHtml(cut(r.question ?? '', opts.maxTextChars))}</div>`,
    r.prediction === null
      ? '<i>(no answer extracted)</i>'
      : `<div class="pred">${escapeHtml(cut(r.prediction, opts.maxTextChars))}</div>`,
    escapeHtml((r.answers ?? []).join(' | ')),
    (r.rawOutput
      ? `<details><summary>raw output</summary><pre>${escapeHtml(cut(r.rawOutput, opts.maxTextChars))}</pre></details>`
      : '') + (r.error ? `<div class="err">${escapeHtml(cut(r.error, 500))}</div>` : ''),
  ]);
  const more =
    records.length > shown.length
      ? `<p class="note">${records.length - shown.length} more samples not shown (see samples.jsonl).</p>`
      : '';
  return (
    table(
      [
        'id',
        'method',
        ...(manyModels ? ['model'] : []),
        'length',
        'status',
        'score ×100',
        'question',
        'prediction',
        'gold',
        'output',
      ],
      body,
      'samples',
    ) + more
  );
}

const STYLE = `
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;margin:24px auto;max-width:1200px;color:#222;padding:0 16px;line-height:1.4}
h1{margin-bottom:4px}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;font-size:13px;margin:8px 0;width:100%}
th,td{border:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#f4f4f4}table.num td{font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#fafafa}
tr.bucket td{color:#555;font-style:italic}.sub{padding-left:14px}
figure{margin:16px 0}figure img{width:100%;max-width:1100px;border:1px solid #e3e3e3}
figcaption{font-size:13px;color:#555}
.models{font-size:15px}.ref{color:#b00;font-weight:bold}.note{color:#555;font-size:13px}
.samples td{max-width:320px;overflow-wrap:break-word}.q,.pred{white-space:pre-wrap;overflow-wrap:anywhere}
.wrap{overflow-wrap:anywhere}details summary{cursor:pointer}
pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:300px;overflow:auto;background:#f7f7f7;padding:6px;margin:4px 0}
.st-error,.err{color:#b00}.st-truncated{color:#a60}span.incomplete{color:#a60;font-weight:bold}tr.incomplete td{background:#fff8ec}
.warn{background:#fff6e0;border:1px solid #f0c36d;padding:6px 10px}
`;

/** The whole report as one HTML string (no scripts; a CSP forbids them as a second line of defence). */
export function renderHtml(data: ReportData, options: HtmlOptions = {}): string {
  const opts: Required<HtmlOptions> = {
    maxSampleRows: options.maxSampleRows ?? 5000,
    maxTextChars: options.maxTextChars ?? 2000,
  };
  const title = data.title ?? 'memagent-bench report';
  const warnings = data.warnings.length
    ? `<div class="warn"><b>Warnings</b><ul>${data.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></div>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${modelsLine(data.rows, data.runs)}
<p class="note">Scores are shown ×100 with 2 decimals; errored samples count as 0. Sample counts per cell are in the summary.</p>
${warnings}
<h2>Runs</h2>
${runsSection(data.runs)}
<h2>Summary</h2>
${summarySection(data.rows, data.missing ?? [], data.facets)}
${(data.sections ?? []).join('\n')}
<h2>Charts</h2>
${chartsSection(data.charts)}
${data.comparisons.length ? `<h2>Published numbers</h2>\n${data.comparisons.map(comparisonSection).join('\n')}` : ''}
<h2>Samples</h2>
${samplesSection(data.records, data.facets, opts)}
<p class="note">Generated by memagent-bench.</p>
</body>
</html>
`;
}
