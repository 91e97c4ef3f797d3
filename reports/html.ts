// Self-contained report.html: charts as data: URIs, every model output and question HTML-escaped, and one script
// of our own (filters and pages for the samples, figures at full size) that the CSP allows by its hash alone.
import type { FacetTable, ReportFacet } from '../harness/report/facet.js';
import type { SampleRecord } from '../harness/types.js';
import { aggregateNotes, breakdownNotes } from './breakdowns.js';
import type { Comparison } from './comparison.js';
import { fmtPct, fmtScore, modelLabel, REFERENCE_READER_LABEL } from './format.js';
import type { ManifestView } from './manifest.js';
import { CUT_CALLS_NOTE, CUT_NOTE, THINKING_NOTE, thinkingCells, thinks, type SummaryRow } from './summary.js';
import { fmtCount, INCOMPLETE_NOTE, missingNote, type MissingCell } from './completeness.js';
import { INTERVAL_NOTE, fmtInterval } from './intervals.js';
import { CLIENT_SCRIPT, clientScriptSource } from './html/client-script.js';
import { escapeHtml } from './html/escape.js';
import { chartsHtml, type EmbeddedChart } from './html/figures.js';
import { fmtInt } from './html/numbers.js';
import { sampleTableHtml } from './html/sample-table.js';
import { STYLE } from './html/style.js';
import { fixtureNote, taskLabel } from './fixtures.js';

export { escapeHtml } from './html/escape.js';
export type { EmbeddedChart } from './html/figures.js';

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
  /** Sample rows per page when the page opens (the reader can change it). Default 50. */
  pageSize?: number;
}

function table(
  head: string[],
  body: string[][],
  cls = '',
  rowClasses: string[] = [],
  cellClasses: string[] = [],
): string {
  const th = head.map((h) => `<th>${h}</th>`).join('');
  const td = (c: string, j: number) => (cellClasses[j] ? `<td class="${cellClasses[j]}">${c}</td>` : `<td>${c}</td>`);
  const tr = body
    .map((row, i) => `<tr${rowClasses[i] ? ` class="${rowClasses[i]}"` : ''}>${row.map(td).join('')}</tr>`)
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
    ? `${fmtInt(run.records)} of ${fmtInt(units)}`
    : fmtInt(run.records);
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
  /** A count: right-aligned. */
  count?: boolean;
}

const SUMMARY_COLUMNS: Column[] = [
  { head: 'task', cell: (r) => escapeHtml(taskLabel(r)) },
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
  { head: 'score ×100', cell: (r) => `<b>${fmtScore(r)}</b>` },
  { head: 'ci95 ×100', cell: (r) => fmtInterval(r) },
  { head: 'ci_method', cell: (r) => escapeHtml(r.ci_method) },
  {
    head: 'n',
    cell: (r) => (r.complete === false ? `<span class="incomplete">${escapeHtml(fmtCount(r))}</span>` : fmtInt(r.n)),
    count: true,
  },
  { head: 'ok', cell: (r) => fmtInt(r.ok), count: true },
  { head: 'errors', cell: (r) => fmtInt(r.errors), count: true },
  { head: 'truncated', cell: (r) => fmtInt(r.truncated), count: true },
  {
    head: 'context cut',
    cell: (r) => fmtInt(r.middleTruncated),
    count: true,
    show: (rows) => rows.some((r) => r.middleTruncated > 0),
  },
  { head: 'empty', cell: (r) => fmtInt(r.empty), count: true },
  { head: 'ok-only ×100', cell: (r) => (r.scoreOkOnly === null ? '–' : fmtPct(r.scoreOkOnly)) },
  {
    head: 'other metrics ×100',
    cell: otherMetrics,
    show: (rows) => rows.some((r) => Object.keys(r.metrics).some((k) => k !== r.metric)),
  },
  { head: 'prompt tokens', cell: (r) => fmtInt(r.promptTokens), count: true },
  { head: 'completion tokens', cell: (r) => fmtInt(r.completionTokens), count: true },
  { head: 'calls', cell: (r) => fmtInt(r.calls), count: true },
  // Calls whose answer ended on the length limit: always shown, so a run with none says 0.
  { head: 'cut calls', cell: (r) => fmtInt(r.cutCalls ?? 0), count: true },
  // Reasoning models only: a run without thinking keeps the columns it always had.
  {
    head: 'thinking/sample',
    cell: (r) => thinkingCells(r, fmtInt)[0],
    count: true,
    show: (rows) => rows.some(thinks),
  },
  {
    head: 'unclosed think',
    cell: (r) => thinkingCells(r, fmtInt)[1],
    count: true,
    show: (rows) => rows.some(thinks),
  },
];

function summarySection(rows: SummaryRow[], missing: MissingCell[], facets: readonly ReportFacet[]): string {
  const columns = SUMMARY_COLUMNS.filter((c) => !c.show || c.show(rows));
  const notes = [
    rows.some((r) => r.complete === false) ? INCOMPLETE_NOTE : '',
    missingNote(missing),
    `ci95: ${INTERVAL_NOTE}`,
    rows.some((r) => r.middleTruncated > 0) ? CUT_NOTE : '',
    rows.some((r) => (r.cutCalls ?? 0) > 0) ? CUT_CALLS_NOTE : '',
    rows.some(thinks) ? THINKING_NOTE : '',
    fixtureNote(rows),
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
      columns.map((c) => (c.count ? 'r' : '')),
    ) + notes
  );
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

/** A report facet's table (e.g. BABILong's task × length accuracies), escaped, with its notes. */
export function facetTableHtml(t: FacetTable): string {
  const from = t.numericFrom ?? t.head.length;
  return (
    `<h3>${escapeHtml(t.title)}</h3>${t.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('')}` +
    table(
      t.head.map(escapeHtml),
      t.body.map((row) => row.map(escapeHtml)),
      'num',
      [],
      t.head.map((_, j) => (j >= from ? 'r' : '')),
    )
  );
}

/** The whole report as one HTML string (its one script is ours; the CSP forbids every other as a second line of
 *  defence, and forms, frames and base URLs too). */
export function renderHtml(data: ReportData, options: HtmlOptions = {}): string {
  const opts: Required<HtmlOptions> = {
    maxSampleRows: options.maxSampleRows ?? 5000,
    maxTextChars: options.maxTextChars ?? 2000,
    pageSize: options.pageSize ?? 50,
  };
  const title = data.title ?? 'memagent-bench report';
  const warnings = data.warnings.length
    ? `<div class="warn"><b>Warnings</b><ul>${data.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></div>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${clientScriptSource()}; form-action 'none'; base-uri 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${modelsLine(data.rows, data.runs)}
${fixtureNote(data.rows) ? `<div class="warn"><b>${escapeHtml(fixtureNote(data.rows))}.</b></div>` : ''}
<p class="note">Scores are shown ×100 with 2 decimals; errored samples count as 0. Sample counts per cell are in the summary.</p>
${warnings}
<h2>Runs</h2>
${runsSection(data.runs)}
<h2>Summary</h2>
${summarySection(data.rows, data.missing ?? [], data.facets)}
${(data.sections ?? []).join('\n')}
<h2>Charts</h2>
${chartsHtml(data.charts)}
${data.comparisons.length ? `<h2>Published numbers</h2>\n${data.comparisons.map(comparisonSection).join('\n')}` : ''}
<h2>Samples</h2>
${sampleTableHtml(data.records, data.facets, opts)}
<p class="note">Generated by memagent-bench.</p>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}
