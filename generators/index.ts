// The benchmark families. Adding a family: a folder under generators/ exporting a Family, and one line in FAMILIES.
import { Catalog, type Family } from '../harness/registry/family.js';
import { babilongFamily } from './babilong/family.js';
import { babilongReportFacet } from '../reports/babilong/facet.js';
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
  // Its report facet (the task × length heatmap and the leaderboard's table) lives with the report writers.
  { ...babilongFamily, reportFacets: [...(babilongFamily.reportFacets ?? []), babilongReportFacet] },
  jsonlFamily,
];

/** Every built-in family's entries; the CLI builds it once and hands it down. */
export function builtinCatalog(): Catalog {
  return new Catalog(FAMILIES);
}
