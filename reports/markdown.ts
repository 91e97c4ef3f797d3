// Markdown forms of the summary and the paper comparison.
import type { FacetTable, ReportFacet } from '../harness/report/facet.js';
import { aggregateNotes, breakdownNotes } from './breakdowns.js';
import type { Comparison } from './comparison.js';
import { fmtScore, modelLabel } from './format.js';
import { CUT_CALLS_NOTE, THINKING_NOTE, thinkingCells, thinks, type SummaryRow } from './summary.js';
import { fmtCount, INCOMPLETE_NOTE, missingNote, type MissingCell } from './completeness.js';
import { INTERVAL_NOTE, TABLE_INTERVAL_COLUMNS, insertIntervalColumns } from './intervals.js';
import { fixtureNote, taskLabel } from './fixtures.js';

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function mdTable(head: string[], body: string[][], rightFrom = Infinity): string {
  const sep = head.map((_, i) => (i >= rightFrom ? '---:' : '---'));
  return [head, sep, ...body].map((row, i) => `| ${(i === 1 ? row : row.map(cell)).join(' | ')} |`).join('\n');
}

/** The summary table and its notes; `facets` name the breakdown rows. */
export function summaryMarkdown(
  rows: SummaryRow[],
  facets: readonly ReportFacet[],
  missing: MissingCell[] = [],
): string {
  // Reasoning models only: a run without thinking keeps the columns it always had.
  const thinking = rows.some(thinks);
  const body = rows.map((r) => [
    taskLabel(r),
    r.method,
    modelLabel(r.model, r.isReferenceReader),
    r.lengthLabel,
    r.metric,
    fmtScore(r),
    fmtCount(r),
    String(r.errors),
    String(r.truncated),
    String(r.empty),
    String(r.cutCalls ?? 0),
    ...(thinking ? thinkingCells(r) : []),
  ]);
  const head = [
    'task',
    'method',
    'model',
    'length',
    'metric',
    'score ×100',
    'n',
    'errors',
    'truncated',
    'empty',
    'cut calls',
    ...(thinking ? ['thinking/sample', 'unclosed think'] : []),
  ];
  insertIntervalColumns(head, body, rows, 'score ×100', TABLE_INTERVAL_COLUMNS);
  const table = mdTable(head, body, 5);
  const notes = [
    `ci95: ${INTERVAL_NOTE}`,
    rows.some((r) => r.complete === false) ? INCOMPLETE_NOTE : '',
    missingNote(missing),
    rows.some((r) => (r.cutCalls ?? 0) > 0) ? CUT_CALLS_NOTE : '',
    thinking ? THINKING_NOTE : '',
    fixtureNote(rows),
    ...breakdownNotes(rows, facets),
    ...aggregateNotes(rows, facets),
  ]
    .filter(Boolean)
    .map((n) => `${cell(n)}.`);
  return [table, ...notes].join('\n\n');
}

export function comparisonMarkdown(c: Comparison): string {
  const body = c.lines.map((l) => [
    `${l.source === 'ours' ? 'ours: ' : ''}${l.name}`,
    ...l.values.map((v) => v ?? '–'),
  ]);
  return `### ${cell(c.title)}\n\n${cell(c.sourceNote)} ${cell(c.matchNote)}\n\n${mdTable(['', ...c.columns], body, 1)}`;
}

/** A report facet's table (e.g. BABILong's task × length accuracies) as a titled markdown section. */
export function facetTableMarkdown(t: FacetTable): string {
  const notes = t.notes.length > 1 ? t.notes.map((n) => `- ${cell(n)}`).join('\n') : t.notes.map(cell).join('');
  return `### ${cell(t.title)}\n\n${notes ? `${notes}\n\n` : ''}${mdTable(t.head, t.body, t.numericFrom)}`;
}

/** The summary.md document. */
export function reportMarkdown(
  rows: SummaryRow[],
  facets: readonly ReportFacet[],
  comparisons: Comparison[],
  chartNames: string[],
  missing: MissingCell[] = [],
  sections: string[] = [],
): string {
  const parts = [
    '# memagent-bench summary',
    '',
    'Scores ×100, 2 decimals; errored samples count as 0.',
    '',
    ...(fixtureNote(rows) ? [`**${cell(fixtureNote(rows))}.**`, ''] : []),
    summaryMarkdown(rows, facets, missing),
  ];
  // A blank line between tables: two tables back to back would read as one.
  if (comparisons.length) parts.push('', '## Published numbers', '', comparisons.map(comparisonMarkdown).join('\n\n'));
  for (const section of sections) parts.push('', section);
  if (chartNames.length) parts.push('', '## Charts', '', ...chartNames.map((n) => `- ![${n}](${n})`));
  return `${parts.join('\n')}\n`;
}
