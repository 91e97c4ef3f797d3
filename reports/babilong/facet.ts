// BABILong's report facet: its figure (a task × length heatmap per method and model) and two tables, ours by task and
// length and the leaderboard's published numbers beside them (baselines/babilong/leaderboard.json). generators/index.ts
// registers it with the family's names.
import type { ReportFacet } from '../../harness/report/facet.js';
import { babilongHeatmapFigure, BABILONG_HEATMAP_TITLE } from '../charts/babilong-heatmap.js';
import { slug } from '../labels.js';
import { babilongRows, groupRows, taskLengthGrid, type BabilongNames } from './grid.js';
import { loadLeaderboard } from './leaderboard.js';
import { accuracyTables, leaderboardTable } from './tables.js';

export function babilongReportFacet(names: BabilongNames): ReportFacet {
  return {
    name: 'babilong-heatmap',
    order: 40,
    charts: ({ rows, referenceModels }) => ({
      charts: groupRows(babilongRows(rows, names)).map((group) => {
        const { method, model } = group[0];
        const grid = taskLengthGrid(group, names);
        return {
          kind: 'babilong-heatmap',
          title: `${BABILONG_HEATMAP_TITLE} (${method})`,
          base: `babilong-${slug(method)}-${slug(model)}`,
          render: (size, output) =>
            babilongHeatmapFigure({
              method,
              model,
              isReferenceReader: referenceModels.has(model),
              grid,
              size,
              output,
            }),
        };
      }),
    }),
    tables: ({ rows }) => {
      const ours = babilongRows(rows, names);
      return ours.length ? [...accuracyTables(ours, names), ...leaderboardTable(ours, loadLeaderboard(), names)] : [];
    },
  };
}
