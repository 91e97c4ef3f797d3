// BABILong's tables in summary.md and report.html: our accuracy by task × length per method and model (the heatmap's
// numbers, 2 decimals), and the leaderboard's published numbers at this report's tasks and lengths, with their source.
import type { FacetTable } from '../../harness/report/facet.js';
import type { SummaryRow } from '../../harness/report/summary-row.js';
import { fmt2, modelLabel } from '../format.js';
import { groupRows, taskLengthGrid, type BabilongNames } from './grid.js';
import { modelSource, type BabilongLeaderboard } from './leaderboard.js';

/** One table per method × model: rows tasks, columns lengths, accuracy ×100. */
export function accuracyTables(rows: readonly SummaryRow[], names: BabilongNames): FacetTable[] {
  return groupRows(rows).map((group) => {
    const grid = taskLengthGrid(group, names);
    const { method, model, isReferenceReader } = group[0];
    return {
      title: `BABILong accuracy ×100 by task and length: ${method} · ${modelLabel(model, isReferenceReader)}`,
      notes: [
        "Accuracy by BABILong's compare_answers, errors counted as wrong; lengths as BABILong names them. Samples per cell: the summary's n.",
      ],
      head: ['task', ...grid.lengths],
      body: grid.tasks.map((task, i) => [task, ...grid.cells[i].map((c) => (c ? fmt2(c.score) : '–'))]),
      numericFrom: 1,
    };
  });
}

/** The leaderboard's models at this report's BABILong tasks and lengths; none when no model has a number there. */
export function leaderboardTable(
  rows: readonly SummaryRow[],
  board: BabilongLeaderboard,
  names: BabilongNames,
): FacetTable[] {
  const grid = taskLengthGrid(rows, names);
  const shown = board.models.filter((m) =>
    grid.tasks.some((t) => grid.lengths.some((l) => m.cells[t]?.[l] !== undefined)),
  );
  if (shown.length === 0) return [];
  const left = board.models.filter((m) => !shown.includes(m)).map((m) => m.model);
  const body = shown.flatMap((m) =>
    grid.tasks
      .filter((t) => m.cells[t])
      .map((t) => [m.model, t, ...grid.lengths.map((l) => (m.cells[t][l] ? fmt2(m.cells[t][l].accuracy) : '–'))]),
  );
  const s = board.source;
  return [
    {
      title: `BABILong leaderboard (${s.repo}): published accuracy ×100 by task and length`,
      notes: [
        `Source: ${s.repo} (${s.url}), the models' predictions in ${s.folder}/, retrieved ${s.retrieved}; ${s.scoring}; ${s.prompt}.`,
        ...shown.map((m) => `${m.model} (${m.kind}): ${modelSource(board, m)}.`),
        `Columns: this report's lengths (– where the model has no predictions); every length: baselines/babilong/leaderboard.json.${left.length ? ` No numbers at these tasks and lengths: ${left.join(', ')}.` : ''}`,
      ],
      head: ['model', 'task', ...grid.lengths],
      body,
      numericFrom: 2,
    },
  ];
}
