// How paired differences are shown: terminal table, markdown, HTML, CSV, JSON, and the plain sentence that says
// which differences are significant after the Holm correction.
import { stringify } from 'csv-stringify/sync';
import { fmt2, fmtPct } from './format.js';
import { displayLength } from './labels.js';
import { DEFAULT_ALPHA, type DiffRow } from './paired.js';

/** A column of a paired-difference table: its header and the cell of one row (plain text; HTML escapes it). */
export interface DiffColumn<T extends DiffRow = DiffRow> {
  head: string;
  cell: (r: T) => string;
  /** Right-aligned in the terminal and markdown (numbers). */
  numeric?: boolean;
}

/** A difference ×100 with its sign, 2 decimals: "+12.50", "-3.12", "0.00". */
export function fmtSigned(fraction: number): string {
  const s = fmt2(fraction * 100);
  return s === '0.00' || s === '-0.00' ? '0.00' : fraction > 0 ? `+${s}` : s;
}

/** "[-3.12, +6.25]". */
export function fmtDiffInterval(r: Pick<DiffRow, 'ci95_low' | 'ci95_high'>): string {
  return r.ci95_low === null || r.ci95_high === null ? '–' : `[${fmtSigned(r.ci95_low)}, ${fmtSigned(r.ci95_high)}]`;
}

/** p-values with 4 decimals; below 0.0001 as "<0.0001". */
export function fmtP(p: number | null): string {
  if (p === null) return '–';
  return p >= 0.0001 ? p.toFixed(4) : '<0.0001';
}

export function significantHead(alpha = DEFAULT_ALPHA): string {
  return `significant (Holm, α=${alpha})`;
}

const TEST_NAMES: Record<string, string> = { 'mcnemar-exact': 'McNemar exact', 'sign-flip': 'sign-flip' };

/** The columns every paired table has: where, who, both scores, the difference, its interval, p, Holm p, verdict. */
export function diffColumns<T extends DiffRow>(alpha = DEFAULT_ALPHA): DiffColumn<T>[] {
  return [
    { head: 'task', cell: (r) => r.task },
    { head: 'length', cell: (r) => displayLength(r.lengthLabel) },
    { head: 'A', cell: (r) => r.a.label },
    { head: 'B', cell: (r) => r.b.label },
    { head: 'n', cell: (r) => (r.paired ? String(r.shared) : `0 of ${r.a.n}/${r.b.n}`), numeric: true },
    { head: 'A ×100', cell: (r) => fmtPct(r.scoreA), numeric: true },
    { head: 'B ×100', cell: (r) => fmtPct(r.scoreB), numeric: true },
    { head: 'B − A', cell: (r) => fmtSigned(r.diff), numeric: true },
    { head: '95% CI', cell: (r) => fmtDiffInterval(r), numeric: true },
    { head: 'test', cell: (r) => (r.test ? TEST_NAMES[r.test] : 'unpaired') },
    { head: 'p', cell: (r) => fmtP(r.p), numeric: true },
    { head: 'Holm p', cell: (r) => fmtP(r.pHolm), numeric: true },
    { head: significantHead(alpha), cell: (r) => (r.p === null ? '–' : r.significant ? 'yes' : 'no') },
  ];
}

/** Plain-text table, columns padded (numbers right-aligned). */
export function textTable<T extends DiffRow>(rows: T[], columns: DiffColumn<T>[]): string {
  const body = rows.map((r) => columns.map((c) => c.cell(r)));
  const widths = columns.map((c, i) => Math.max(c.head.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (columns[i].numeric ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.head)), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function mdCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function markdownTable<T extends DiffRow>(rows: T[], columns: DiffColumn<T>[]): string {
  const head = `| ${columns.map((c) => mdCell(c.head)).join(' | ')} |`;
  const sep = `| ${columns.map((c) => (c.numeric ? '---:' : '---')).join(' | ')} |`;
  return [head, sep, ...rows.map((r) => `| ${columns.map((c) => mdCell(c.cell(r))).join(' | ')} |`)].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export function htmlTable<T extends DiffRow>(rows: T[], columns: DiffColumn<T>[]): string {
  const th = columns.map((c) => `<th>${escapeHtml(c.head)}</th>`).join('');
  // A significant row's verdict cell is bold.
  const td = (c: DiffColumn<T>, r: T) =>
    c.head.startsWith('significant') && r.significant ? '<b>yes</b>' : escapeHtml(c.cell(r));
  const tr = rows.map((r) => `<tr>${columns.map((c) => `<td>${td(c, r)}</td>`).join('')}</tr>`).join('\n');
  return `<table class="num"><thead><tr>${th}</tr></thead><tbody>\n${tr}\n</tbody></table>`;
}

function rowName(r: DiffRow): string {
  return `${r.task} ${displayLength(r.lengthLabel)}: ${r.b.label} − ${r.a.label} = ${fmtSigned(r.diff)} points ${fmtDiffInterval(r)}, p = ${fmtP(r.p)}, Holm p = ${fmtP(r.pHolm)}`;
}

/**
 * The plain statement under a table: how many paired differences are significant after the Holm correction across
 * the paired rows shown, which ones, and that the others are not.
 */
export function holmSentence(rows: DiffRow[], alpha = DEFAULT_ALPHA): string {
  const paired = rows.filter((r) => r.p !== null);
  const m = paired.length;
  if (m === 0)
    return 'No paired comparison: the two sides share no sample (the same id and content), so no difference is tested.';
  const sig = paired.filter((r) => r.significant);
  const family = `Holm correction across the ${m} paired comparison${m === 1 ? '' : 's'} shown (family-wise α = ${alpha})`;
  if (sig.length === 0)
    return `${family}: no difference is significant; the intervals above show how large a difference these samples cannot rule out.`;
  const rest = m - sig.length;
  const restText =
    rest === 0 ? '' : ` The other ${rest} ${rest === 1 ? 'difference is' : 'differences are'} not significant.`;
  return `${family}: ${sig.length} significant — ${sig.map(rowName).join('; ')}.${restText}`;
}

/** What the columns mean, for a note under the table. */
export const PAIRED_NOTE =
  'B − A in points ×100 over the sample ids both sides share (errored samples count as 0); 95% CI: paired bootstrap over shared ids (2,000 resamples, seeded); p: two-sided, exact McNemar when every score is 0 or 1, else a paired sign-flip (randomization) test; Holm p: adjusted across the paired rows of this table';

/** CSV of paired rows (scores ×100); `extra` adds columns after the standard ones. */
export function diffCsv<T extends DiffRow>(rows: T[], extra: Array<[string, (r: T) => string]> = []): string {
  const header = [
    'task',
    'length_label',
    'length_kind',
    'length',
    'metric',
    'a',
    'b',
    'a_method',
    'a_model',
    'b_method',
    'b_model',
    'n_a',
    'n_b',
    'shared',
    'score_a_x100',
    'score_b_x100',
    'diff_x100',
    'ci95_low_x100',
    'ci95_high_x100',
    'ci_method',
    'test',
    'p',
    'p_holm',
    'significant',
    ...extra.map(([h]) => h),
  ];
  const body = rows.map((r) => [
    r.task,
    r.lengthLabel,
    r.lengthKind,
    r.length,
    r.metric,
    r.a.label,
    r.b.label,
    r.a.method,
    r.a.model,
    r.b.method,
    r.b.model,
    r.a.n,
    r.b.n,
    r.shared,
    fmtPct(r.scoreA),
    fmtPct(r.scoreB),
    fmt2(r.diff * 100),
    r.ci95_low === null ? '' : fmt2(r.ci95_low * 100),
    r.ci95_high === null ? '' : fmt2(r.ci95_high * 100),
    r.paired ? 'paired-bootstrap' : '',
    r.test ?? '',
    r.p ?? '',
    r.pHolm ?? '',
    r.p === null ? '' : r.significant ? 'yes' : 'no',
    ...extra.map(([, f]) => f(r)),
  ]);
  return stringify([header, ...body]);
}

/** JSON of paired rows: fractions, unrounded, with the family size and alpha of the Holm correction. */
export function diffJson<T extends DiffRow>(
  rows: T[],
  alpha = DEFAULT_ALPHA,
): { version: 1; alpha: number; holmFamily: number; note: string; sentence: string; rows: T[] } {
  return {
    version: 1,
    alpha,
    holmFamily: rows.filter((r) => r.p !== null).length,
    note: PAIRED_NOTE,
    sentence: holmSentence(rows, alpha),
    rows,
  };
}

/** The paired section of summary.md. */
export function pairedMarkdown(rows: DiffRow[], alpha = DEFAULT_ALPHA): string {
  return [
    '## Paired differences',
    '',
    markdownTable(rows, diffColumns(alpha)),
    '',
    `${mdCell(holmSentence(rows, alpha))}`,
    '',
    `${mdCell(PAIRED_NOTE)}.`,
  ].join('\n');
}

/** The paired section of report.html (its <h2> included). */
export function pairedHtml(rows: DiffRow[], alpha = DEFAULT_ALPHA): string {
  return `<h2>Paired differences</h2>\n${htmlTable(rows, diffColumns(alpha))}\n<p><b>${escapeHtml(holmSentence(rows, alpha))}</b></p>\n<p class="note">${escapeHtml(PAIRED_NOTE)}.</p>`;
}
