// What `bench view` shows of each run directory, read once at start: its records (latest copy of each sample), the
// summary rows with intervals, the manifest, its charts (charts/*.png written by bench report) and an index of its
// memory.jsonl. Nothing is ever written.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../../harness/errors.js';
import type { ReportFacet } from '../../harness/report/facet.js';
import { recordKey } from '../../harness/run-dir/record-key.js';
import { MEMORY_TRACE_FILE } from '../../harness/run-dir/memory-trace.js';
import type { SampleRecord } from '../../harness/types.js';
import { expectedSources, markCompleteness } from '../completeness.js';
import { loadManifestView, type ManifestView } from '../manifest.js';
import { loadRecords } from '../records.js';
import { summarize, type SummaryRow } from '../summary.js';
import { MemoryIndex } from './memory-index.js';

export interface ViewChart {
  /** Path relative to the run directory, e.g. charts/accuracy-ruler-hqa-double.png. */
  file: string;
  caption: string;
}

export interface ViewRun {
  /** Position in the command line: the id in URLs. */
  index: number;
  /** The directory as given and its real path (symlinks followed): files are served only from under the latter. */
  dir: string;
  root: string;
  name: string;
  manifest: ManifestView | null;
  records: SampleRecord[];
  /** Records by `${id}#${method}`. */
  byKey: Map<string, SampleRecord>;
  rows: SummaryRow[];
  charts: ViewChart[];
  /** Built on first use (a large memory.jsonl takes one pass). */
  memory(): MemoryIndex;
  warnings: string[];
}

/** The charts bench report wrote into the run directory: each chart's largest PNG and its caption. */
function chartsOf(root: string): ViewChart[] {
  const dir = join(root, 'charts');
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir).sort();
  const out: ViewChart[] = [];
  const bases = new Set(names.filter((n) => n.endsWith('.caption.txt')).map((n) => n.slice(0, -'.caption.txt'.length)));
  for (const base of bases) {
    const png = [`${base}-double.png`, `${base}-single.png`].find((n) => names.includes(n));
    if (!png) continue;
    out.push({ file: `charts/${png}`, caption: readFileSync(join(dir, `${base}.caption.txt`), 'utf8').trim() });
  }
  return out;
}

export async function loadViewRun(dir: string, index: number, facets: readonly ReportFacet[]): Promise<ViewRun> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`run directory not found: ${dir}`);
  if (!existsSync(join(dir, 'samples.jsonl')))
    throw new UserError(`${dir} has no samples.jsonl (is it a run directory written by "bench run"?)`);
  const root = realpathSync(dir);
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  const manifest = loadManifestView(dir, warn);
  const records = await loadRecords(dir, { onWarning: warn });
  const rows = summarize(records, facets);
  if (manifest?.model.isReferenceReader) for (const r of rows) r.isReferenceReader = true;
  markCompleteness(rows, expectedSources(manifest));
  let memory: MemoryIndex | undefined;
  return {
    index,
    dir,
    root,
    name: basename(resolve(dir)),
    manifest,
    records,
    byKey: new Map(records.map((r) => [recordKey(r), r])),
    rows,
    charts: chartsOf(root),
    memory: () => (memory ??= MemoryIndex.build(join(root, MEMORY_TRACE_FILE))),
    warnings,
  };
}

/** The run directories under `parent` (runs/ by default): those holding a samples.jsonl, one level down. */
export function runDirsUnder(parent: string): string[] {
  if (!existsSync(parent) || !statSync(parent).isDirectory()) return [];
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (existsSync(join(d, 'samples.jsonl'))) {
      out.push(d);
      return;
    }
    if (depth === 0) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (!name.startsWith('.') && statSync(p).isDirectory()) walk(p, depth - 1);
    }
  };
  walk(parent, 2);
  return out;
}
