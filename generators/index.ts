// The benchmark families. Adding a family: a folder under generators/ exporting a Family, and one line in FAMILIES.
import { Catalog, type Family } from '../harness/registry/family.js';
import { babilongReportFacet } from '../reports/babilong/facet.js';
import { babilongFamily } from './babilong/family.js';
import { BABILONG_METRIC } from './babilong/index.js';
import { babilongLengthName } from './babilong/lengths.js';
import { BABILONG_TASKS } from './babilong/tasks.js';
import { jsonlFamily } from './jsonl/family.js';
import { longbenchFamily } from './longbench/family.js';
import { longbenchV2Family } from './longbench-v2/family.js';
import { rulerHqaFamily } from './ruler-hqa/family.js';
import { rulerFamily } from './ruler/family.js';

export const FAMILIES: readonly Family[] = [
  rulerHqaFamily,
  rulerFamily,
  longbenchFamily,
  longbenchV2Family,
  // Its report facet (BABILong's heatmap and tables) lives with the report writers, which are given its names.
  {
    ...babilongFamily,
    reportFacets: [
      ...(babilongFamily.reportFacets ?? []),
      babilongReportFacet({ metric: BABILONG_METRIC, tasks: BABILONG_TASKS, lengthName: babilongLengthName }),
    ],
  },
  jsonlFamily,
];

/** Every built-in family's entries; the CLI builds it once and hands it down. */
export function builtinCatalog(): Catalog {
  return new Catalog(FAMILIES);
}
