// The per-sample table of report.html: every row rendered (and escaped) here, with filter controls and a pager that
// the page's one script (./client-script.ts) brings to life. Without scripts every row simply shows.
import type { ReportFacet } from '../../harness/report/facet.js';
import type { SampleRecord } from '../../harness/types.js';
import { breakdownLabels } from '../breakdowns.js';
import { fmtPct } from '../format.js';
import { compareRows } from '../summary.js';
import { escapeHtml } from './escape.js';
import { fmtInt } from './numbers.js';

export interface SampleTableOptions {
  /** Rows rendered at most (the rest are counted). */
  maxSampleRows: number;
  /** Characters of a question, prediction or raw output shown before it is cut. */
  maxTextChars: number;
  /** Rows per page when the page opens. */
  pageSize: number;
}

export const PAGE_SIZES = [25, 50, 100, 200] as const;

/** How a sample scored: the whole point, part of it, or nothing (errors included, as they count 0). */
export type SampleResult = 'correct' | 'partial' | 'incorrect';

export function sampleResult(r: Pick<SampleRecord, 'status' | 'score'>): SampleResult {
  if (r.status === 'error' || !(r.score > 0)) return 'incorrect';
  return r.score >= 1 ? 'correct' : 'partial';
}

const RESULT_LABELS: Record<SampleResult, string> = {
  correct: 'correct (score 100)',
  partial: 'partial (between 0 and 100)',
  incorrect: 'incorrect (score 0)',
};

/** A filter: a select whose options are the distinct values of the rows; a row carries its options' indices. */
interface Filter {
  key: string;
  label: string;
  values: (r: SampleRecord) => string[];
  /** Option order; default: first seen in the sorted rows. */
  order?: (a: string, b: string) => number;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${fmtInt(text.length - max)} more characters]` : text;
}

/** The length labels in axis order (kind, then value), e.g. 8k before 16k; breakdown labels after them. */
function lengthOrder(records: SampleRecord[]): (a: string, b: string) => number {
  const rank = new Map<string, number>();
  const byAxis = [...records].sort((a, b) =>
    a.lengthKind < b.lengthKind ? -1 : a.lengthKind > b.lengthKind ? 1 : a.length - b.length,
  );
  for (const r of byAxis) if (!rank.has(r.lengthLabel)) rank.set(r.lengthLabel, rank.size);
  const natural = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  return (a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || natural(a, b);
}

function filtersFor(records: SampleRecord[], facets: readonly ReportFacet[]): Filter[] {
  const resultRank: SampleResult[] = ['correct', 'partial', 'incorrect'];
  return [
    { key: 'task', label: 'task', values: (r) => [r.task] },
    { key: 'method', label: 'method', values: (r) => [r.method] },
    { key: 'model', label: 'model', values: (r) => [r.model] },
    {
      key: 'length',
      label: 'length',
      values: (r) => [r.lengthLabel, ...breakdownLabels(r, facets)],
      order: lengthOrder(records),
    },
    { key: 'status', label: 'status', values: (r) => [r.status] },
    {
      key: 'result',
      label: 'result',
      values: (r) => [sampleResult(r)],
      order: (a, b) => resultRank.indexOf(a as SampleResult) - resultRank.indexOf(b as SampleResult),
    },
  ];
}

interface BuiltFilter extends Filter {
  /** Option values in display order, with their row counts. */
  options: { value: string; count: number }[];
  index: Map<string, number>;
}

function buildFilter(f: Filter, rows: SampleRecord[]): BuiltFilter {
  const counts = new Map<string, number>();
  for (const r of rows) for (const v of new Set(f.values(r))) counts.set(v, (counts.get(v) ?? 0) + 1);
  const values = [...counts.keys()];
  if (f.order) values.sort(f.order);
  return {
    ...f,
    options: values.map((value) => ({ value, count: counts.get(value) ?? 0 })),
    index: new Map(values.map((v, i) => [v, i])),
  };
}

function optionLabel(f: BuiltFilter, value: string): string {
  return f.key === 'result' ? RESULT_LABELS[value as SampleResult] : value;
}

function selectHtml(f: BuiltFilter, total: number): string {
  const options = f.options.map(
    (o, i) => `<option value="${i}">${escapeHtml(optionLabel(f, o.value))} (${fmtInt(o.count)})</option>`,
  );
  return (
    `<label>${escapeHtml(f.label)} <select name="${f.key}">` +
    `<option value="">all (${fmtInt(total)})</option>${options.join('')}</select></label>`
  );
}

function pagerHtml(): string {
  return (
    '<div class="pager">' +
    '<button type="button" data-page="first">« first</button>' +
    '<button type="button" data-page="prev">‹ previous</button>' +
    '<span class="sample-count" aria-live="polite"></span>' +
    '<button type="button" data-page="next">next ›</button>' +
    '<button type="button" data-page="last">last »</button></div>'
  );
}

function controlsHtml(filters: BuiltFilter[], shown: number, pageSize: number): string {
  const sizes = [...new Set([...PAGE_SIZES, pageSize])].sort((a, b) => a - b);
  const sizeOptions = sizes
    .map((n) => `<option value="${n}"${n === pageSize ? ' selected' : ''}>${fmtInt(n)}</option>`)
    .join('');
  return (
    '<form id="sample-filters" class="filters" role="search" autocomplete="off">' +
    filters.map((f) => selectHtml(f, shown)).join('') +
    '<label class="grow">search <input type="search" name="q" ' +
    'placeholder="words in the question, prediction or gold answer"></label>' +
    `<label>per page <select name="size">${sizeOptions}<option value="0">all</option></select></label>` +
    '<button type="reset">clear filters</button></form>' +
    pagerHtml()
  );
}

/** Whether a run's samples thought (a reasoning model): only then does the table get its thinking column. */
function thought(r: SampleRecord): boolean {
  return (r.thinkingTokens ?? 0) > 0 || (r.unclosedThinkCalls ?? 0) > 0 || (r.reasoning ?? '') !== '';
}

/** The thinking cell: tokens of thinking over the sample's calls, unclosed <think> calls, the kept reasoning text. */
function thinkingCell(r: SampleRecord, maxText: number): string {
  const unclosed = r.unclosedThinkCalls ?? 0;
  return (
    `<div class="tok">${fmtInt(r.thinkingTokens ?? 0)} tokens</div>` +
    (unclosed > 0
      ? `<div class="err">${escapeHtml(`${fmtInt(unclosed)} ${unclosed === 1 ? 'call' : 'calls'} with <think> unclosed`)}</div>`
      : '') +
    (r.reasoning
      ? `<details><summary>reasoning</summary><pre>${escapeHtml(cut(r.reasoning, maxText))}</pre></details>`
      : '')
  );
}

function rowHtml(
  r: SampleRecord,
  filters: BuiltFilter[],
  facets: readonly ReportFacet[],
  manyModels: boolean,
  thinking: boolean,
  maxText: number,
): string {
  const data = filters
    .map((f) => ` data-${f.key}="${[...new Set(f.values(r))].map((v) => f.index.get(v)).join(' ')}"`)
    .join('');
  const length = [r.lengthLabel, ...breakdownLabels(r, facets)].join(' · ');
  const tokens = Number.isFinite(r.builtTokens) ? `<div class="tok">${fmtInt(r.builtTokens)} tokens</div>` : '';
  const cells = [
    escapeHtml(r.id),
    escapeHtml(r.method),
    ...(manyModels ? [escapeHtml(r.model)] : []),
    `${escapeHtml(length)}${tokens}`,
    `<span class="st-${escapeHtml(r.status)}">${escapeHtml(r.status)}</span>`,
    r.status === 'error' ? '0.00' : fmtPct(r.score),
    `<div class="q">${escapeHtml(cut(r.question ?? '', maxText))}</div>`,
    r.prediction === null
      ? '<i>(no answer extracted)</i>'
      : `<div class="pred">${escapeHtml(cut(r.prediction, maxText))}</div>`,
    `<div class="gold">${escapeHtml((r.answers ?? []).join(' | '))}</div>`,
    ...(thinking ? [thinkingCell(r, maxText)] : []),
    (r.rawOutput
      ? `<details><summary>raw output</summary><pre>${escapeHtml(cut(r.rawOutput, maxText))}</pre></details>`
      : '') + (r.error ? `<div class="err">${escapeHtml(cut(r.error, 500))}</div>` : ''),
  ];
  return `<tr${data}>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
}

/** The Samples section's body: controls, table, pager, and a note on the rows left out. */
export function sampleTableHtml(
  records: SampleRecord[],
  facets: readonly ReportFacet[],
  opts: SampleTableOptions,
): string {
  if (records.length === 0) return '<p>No samples.</p>';
  // In summary order (task, method, model, length), then by index: the file holds them in finishing order.
  const sorted = [...records].sort((a, b) => compareRows(a, b) || a.index - b.index);
  const shown = sorted.slice(0, opts.maxSampleRows);
  const built = filtersFor(shown, facets).map((f) => buildFilter(f, shown));
  // A filter with one value filters nothing; its column still shows the value.
  const filters = built.filter((f) => f.options.length > 1);
  const manyModels = new Set(shown.map((r) => r.model)).size > 1;
  const thinking = shown.some(thought);
  const head = [
    'id',
    'method',
    ...(manyModels ? ['model'] : []),
    'length',
    'status',
    'score ×100',
    'question',
    'prediction',
    'gold',
    ...(thinking ? ['thinking'] : []),
    'output',
  ];
  const more =
    records.length > shown.length
      ? `<p class="note">${fmtInt(records.length - shown.length)} more samples not shown (see samples.jsonl).</p>`
      : '';
  return (
    `<div id="sample-controls" class="controls" hidden data-page-size="${opts.pageSize}">` +
    `${controlsHtml(filters, shown.length, opts.pageSize)}</div>\n` +
    `<table id="samples" class="samples"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>\n` +
    shown.map((r) => rowHtml(r, filters, facets, manyModels, thinking, opts.maxTextChars)).join('\n') +
    '\n</tbody></table>\n' +
    '<p id="sample-empty" class="note" hidden>No sample matches these filters.</p>\n' +
    `<div id="sample-pager-bottom" class="controls" hidden>${pagerHtml()}</div>\n` +
    more
  );
}
