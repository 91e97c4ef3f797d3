// What the CLI injects into the runner besides the model and the event sink: the catalog, the summary writer
// (reports/) and the module worker threads rebuild the catalog and the embedded model from.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Catalog } from '../harness/registry/family.js';
import type { ReportFacet } from '../harness/report/facet.js';
import type { FinishedRun, RunHooks } from '../harness/runner/runner.js';
import { formatSummaryTable, isGateRow, summarize, writeSummary } from '../reports/summary.js';
import { expectedSources, markCompleteness, missingCells } from '../reports/completeness.js';
import { manifestView } from '../reports/manifest.js';
import type { CostModel } from '../harness/report/cost.js';
import { costModel } from './cost-preset.js';

/** cli/worker-setup's URL, with this build's extension (.js in dist, .ts under tsx or vitest). */
export const WORKER_SETUP_URL = new URL(`./worker-setup${extname(fileURLToPath(import.meta.url))}`, import.meta.url)
  .href;

/** summary.csv / summary.json of the whole run directory (every invocation's cells, planned as its manifest's history
 *  plans them: what `bench report DIR` writes), with each cell's planned count and the planned cells without a sample;
 *  returns the table printed after the run, of this invocation's cells. */
export function summaryWriter(
  facets: readonly ReportFacet[],
  cost: CostModel = costModel(),
): (run: FinishedRun) => string {
  return (run) => {
    const plannedWhole = expectedSources(manifestView(run.directory.manifest));
    const skipped = run.directory.manifest.skipped ?? [];
    const whole = markCompleteness(summarize(run.directory.records, facets, cost), plannedWhole);
    writeSummary(run.outDir, whole, missingCells(whole, plannedWhole), skipped);
    const planned = [{ expected: run.expected, methods: run.methods, model: run.model, shard: 'all' }];
    const summary = markCompleteness(summarize(run.records, facets, cost), planned);
    const table = formatSummaryTable(summary, facets, missingCells(summary, planned), skipped);
    const cells = (rows: typeof whole) => rows.filter(isGateRow).length;
    return cells(whole) > cells(summary)
      ? `${table}

${wholeDirectoryNote(cells(summary), cells(whole), run.outDir)}`
      : table;
  };
}

/** Under the table when the directory holds more than this invocation ran. */
export function wholeDirectoryNote(shown: number, all: number, dir: string): string {
  return `this table: the ${shown} cell(s) this command ran; summary.csv and summary.json in ${dir} hold all ${all} of the directory (bench report ${dir} for the rest)`;
}

/** The runner's hooks for the built-in setup: worker threads rebuild cli/worker-setup's catalog, so `catalog` must
 *  hold the same tasks (a catalog of your own: leave workerSetup out, and the run stays on this thread). */
export function runHooks(
  catalog: Catalog,
  cost: CostModel = costModel(),
): Pick<RunHooks, 'catalog' | 'writeSummary' | 'workerSetup'> {
  return { catalog, writeSummary: summaryWriter(catalog.reportFacets.all(), cost), workerSetup: WORKER_SETUP_URL };
}
