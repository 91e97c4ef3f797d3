// `bench score TARGET`'s driver: what TARGET is (a bench run directory or its samples.jsonl, or files of a peer
// tool that a registered ScoreSource reads), which files to score, and the table of rows.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import type { Registry } from '../../registry/registry.js';
import { jsonlRows } from '../../run-dir/jsonl.js';
import type { ScoreRow, ScoreTable } from '../aggregate.js';
import { getMetric, type MetricRegistry } from '../metric.js';
import { scoreRun } from './run.js';
import { newTokenTally, tokenTallyNote, type ScoreSource } from './source.js';

/** The format of a bench run's own samples.jsonl. */
export const RUN_FORMAT = 'run';

export interface ScoreRequest {
  /** 'auto' (or undefined): decided from the files; else a registered source's name. */
  format?: string;
  /** A metric of the registry that replaces the one each file or record would be scored with (bench score --metric). */
  metric?: string;
  /** Switches for the source (ScoreContext.options). */
  options?: Readonly<Record<string, unknown>>;
}

export interface ScoreEnv {
  metrics: MetricRegistry;
  scoreSources: Registry<ScoreSource>;
}

/** "expected ..." for messages: the run directory, then each source's files, named from the most general layout. */
export function formatHint(sources: Registry<ScoreSource>): string {
  const files = sources
    .all()
    .reverse()
    .map((s) => s.files);
  const list = files.length > 1 ? `${files.slice(0, -1).join(', ')} or ${files[files.length - 1]}` : files.join('');
  return `expected a bench run directory (samples.jsonl)${list ? `, ${list}` : ''}`;
}

/** A --format value the registry does not know, as one line. */
export function checkFormat(format: string | undefined, sources: Registry<ScoreSource>): void {
  if (format === undefined || format === 'auto' || sources.has(format)) return;
  const names = sources.names();
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join('');
  throw new UserError(`--format must be ${list}, got '${format}'`);
}

/** The format a parsed line belongs to, or null when it matches none. */
export function detectLine(v: Record<string, unknown>, sources: Registry<ScoreSource>): string | null {
  if (
    typeof v.id === 'string' &&
    typeof v.task === 'string' &&
    typeof v.method === 'string' &&
    typeof v.metric === 'string' &&
    'status' in v
  )
    return RUN_FORMAT;
  return sources.all().find((s) => s.detect(v))?.name ?? null;
}

function jsonlIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

/** The format of a file, from its first line. */
function detectFile(file: string, sources: Registry<ScoreSource>): string {
  const rows = jsonlRows(file, { mode: 'lenient' });
  const next = rows.next();
  rows.return(undefined);
  const first = next.done ? undefined : next.value;
  if (!first) throw new UserError(`${file}: empty file; ${formatHint(sources)}`);
  const format = detectLine(first.value, sources);
  if (!format) {
    const keys = Object.keys(first.value).slice(0, 12).join(', ');
    throw new UserError(`${file}:${first.line}: unknown format (fields: ${keys}); ${formatHint(sources)}`);
  }
  return format;
}

/** Folders below `dir` (hidden ones skipped, at most `depth` levels down) that hold .jsonl files, in name order. */
function jsonlFolders(dir: string, depth: number): string[][] {
  const out: string[][] = [];
  const walk = (d: string, left: number) => {
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    const here = entries.filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => join(d, e.name));
    if (here.length > 0) out.push(here);
    if (left > 0)
      for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) walk(join(d, e.name), left - 1);
  };
  walk(dir, depth);
  return out;
}

/**
 * An export's or a peer's root folder (`bench export --out DIR`, LongBench's `pred/`, RULER's `<root>/<model>`): the
 * folders of .jsonl files below it, each scored as the folder it is (one model's LongBench predictions, one length's
 * RULER preds). Every file must be of one format: the requested one, else the first file's.
 */
function resolveTree(
  target: string,
  requested: string | undefined,
  sources: Registry<ScoreSource>,
): { format: string; files: string[]; groups: string[][] } | undefined {
  const groups = jsonlFolders(target, 6);
  if (groups.length === 0) return undefined;
  const files = groups.flat();
  const format = requested !== undefined && requested !== 'auto' ? requested : detectFile(files[0], sources);
  for (const f of files) {
    const found = detectFile(f, sources);
    if (found !== format)
      throw new UserError(
        `${f}: looks like ${found} output, not ${format} as ${files[0]}; score one kind of file at a time (pass the folder that holds one kind)`,
      );
  }
  return { format, files, groups };
}

/** Files to score and their format; `groups`: the folders scored one at a time (an export's root). */
function resolveTarget(
  target: string,
  requested: string | undefined,
  sources: Registry<ScoreSource>,
): { format: string; files: string[]; groups?: string[][] } {
  if (!existsSync(target))
    throw new UserError(`not found: ${target} (pass a run directory, a pred directory or a .jsonl file)`);
  const auto = requested === undefined || requested === 'auto';
  const samples = join(target, 'samples.jsonl');
  if (!(auto && statSync(target).isDirectory() && existsSync(samples)))
    for (const s of sources.all()) {
      if (!s.claim || !(auto || requested === s.name)) continue;
      const groups = s.claim(target);
      if (groups) return { format: s.name, files: groups.flat(), groups };
      if (!auto) throw new UserError(`--format ${s.name}: no ${s.files} at ${target}`);
    }
  let files: string[];
  if (statSync(target).isDirectory()) {
    if (existsSync(samples) && auto) return { format: RUN_FORMAT, files: [samples] };
    files = jsonlIn(target);
    for (const s of sources.all()) if (files.length === 0) files = s.nestedFiles?.(target) ?? [];
    if (files.length === 0) {
      const tree = resolveTree(target, requested, sources);
      if (tree) return tree;
      throw new UserError(`no .jsonl files in ${target} or below it; ${formatHint(sources)}`);
    }
  } else {
    files = [target];
  }
  const formats = files.map((f) => detectFile(f, sources));
  const format = requested !== undefined && requested !== 'auto' ? requested : formats[0];
  files.forEach((f, k) => {
    if (formats[k] !== format) {
      throw new UserError(
        `${f}: looks like ${formats[k]} output, not ${format}; score one kind of file at a time${requested && requested !== 'auto' ? ' or drop --format' : ''}`,
      );
    }
  });
  return { format, files };
}

/** Re-scores TARGET and returns one row per task × method × model × length (LongBench: per dataset, or per bucket). */
export function scoreTargetWith(target: string, req: ScoreRequest, env: ScoreEnv): ScoreTable {
  checkFormat(req.format, env.scoreSources);
  const metric = req.metric === undefined ? undefined : getMetric(env.metrics, req.metric).name;
  const { format, files, groups } = resolveTarget(target, req.format, env.scoreSources);
  const warnings: string[] = [];
  const notes: string[] = [];
  const tokens = newTokenTally();
  let rows: ScoreRow[];
  if (format === RUN_FORMAT) rows = scoreRun(files[0], warnings, env.metrics, metric, tokens);
  else {
    const source = env.scoreSources.get(format);
    const ctx = { metrics: env.metrics, metric, warnings, notes, options: req.options ?? {}, tokens };
    rows = (groups ?? [files]).flatMap((g) => source.score(g, ctx));
  }
  const cleaned = tokenTallyNote(tokens);
  if (cleaned !== null) notes.push(cleaned);
  if (metric !== undefined)
    notes.push(
      `metric ${metric} from --metric, in place of the one ${format === RUN_FORMAT ? 'each record names' : 'the files would be scored with'}`,
    );
  return { target, format, rows, warnings, notes };
}
