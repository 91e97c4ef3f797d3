// BABILong's report facet: its figure (a task × length heatmap per method and model) and two tables, ours by task and
// length and the leaderboard's published numbers beside them (baselines/babilong/leaderboard.json).
import type { ReportFacet } from '../../harness/report/facet.js';
import { babilongHeatmapFigure, babilongRows, BABILONG_HEATMAP_TITLE } from '../charts/babilong-heatmap.js';
import { slug } from '../labels.js';
import { loadLeaderboard } from './leaderboard.js';
import { groupRows } from './series.js';
import { accuracyTables, leaderboardTable } from './tables.js';

export const babilongReportFacet: ReportFacet = {
  name: 'babilong-heatmap',
  order: 40,
  charts: ({ rows, referenceModels }) => ({
    charts: groupRows(babilongRows(rows)).map((group) => {
      const { method, model } = group[0];
      return {
        kind: 'babilong-heatmap',
        title: `${BABILONG_HEATMAP_TITLE} (${method})`,
        base: `babilong-${slug(method)}-${slug(model)}`,
        render: (size, output) =>
          babilongHeatmapFigure({
            method,
            model,
            isReferenceReader: referenceModels.has(model),
            rows: group,
            size,
            output,
          }),
      };
    }),
  }),
  tables: ({ rows }) => {
    const ours = babilongRows(rows);
    return ours.length ? [...accuracyTables(ours), ...leaderboardTable(ours, loadLeaderboard())] : [];
  },
};
