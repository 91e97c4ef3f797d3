// RULER's report facet: a NIAH heatmap (needle depth × context length) per task × method × model.
import type { ReportFacet } from '../../harness/report/facet.js';
import { slug } from '../../reports/labels.js';
import { groupBySeries } from '../../reports/records.js';
import { depthOf, heatmapFigure } from './heatmap-chart.js';

export const rulerReportFacet: ReportFacet = {
  name: 'ruler-heatmap',
  order: 10,
  charts: ({ records, referenceModels }) => ({
    charts: groupBySeries(records, (r) => depthOf(r) !== null).map((group) => {
      const { task, method, model } = group[0];
      return {
        kind: 'niah-heatmap',
        title: `${task}: score by needle depth and context length (${method})`,
        base: `niah-${slug(task)}-${slug(method)}-${slug(model)}`,
        render: (size, output) =>
          heatmapFigure({
            task,
            method,
            model,
            isReferenceReader: referenceModels.has(model),
            records: group,
            size,
            output,
          }),
      };
    }),
  }),
};
