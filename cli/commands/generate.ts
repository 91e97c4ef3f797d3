// `bench generate`: writes a task's samples as JSONL in the layouts other tools read, through the dataset cache. Each
// --format is a GenerateLayout: the families register their peers' (generators/ruler/generate.ts: RULER's
// OUT/<tokens>/data/<task>/validation.jsonl; generators/ruler-hqa/generate.ts: MemAgent's OUT/eval_<N>.json), the
// harness its own `native` (every Sample field, all lengths in the one file OUT). This file is the generic driver.
import { withRunnerIdentity } from '../../harness/runner/sample-identity.js';
import { dirname } from 'node:path';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { UserError } from '../../harness/errors.js';
import type { LengthTarget, PreparedTask, TaskDefinition, Tokenizer } from '../../harness/types.js';
import { copyLines, DatasetCache, type DatasetKey, writeJsonRow } from '../../harness/cache/dataset-cache.js';
import { openAtomic, type AtomicFile } from '../../harness/run-dir/atomic-write.js';
import { datasetCacheDir } from '../../harness/cache/cache-root.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { parseLengths } from '../../harness/config/lengths.js';
import type { GenerateLayout } from '../../harness/formats/generate-layout.js';
import type { Catalog } from '../../harness/registry/family.js';
import type { CliContext } from '../context.js';
import { gridFor, refuseBeyondLimit, samplesCappedNote } from '../../harness/runner/plan.js';
import { checkOutputFile } from '../../harness/path-checks.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';
import { plural } from '../../harness/util/plural.js';

/** A --format name of the catalog's generate layouts (ruler, memagent and native built in). */
export type GenerateFormat = string;

/** Version of the row layouts; part of the cache key. 2: native rows carry `scoring`. 3: native rows name the
 *  middle-truncation rule by what it does (`joined`, `halves`), and ids are the runner's. 4: MemAgent's RULER-HQA rows at
 *  docs:N carry num_docs, and memagent rows of RULER's tasks carry `answer_prefix`. */
export const GENERATE_ROWS_VERSION = '4';

type GenerateCatalog = Pick<Catalog, 'generateLayouts' | 'generateFormats'>;

export interface GenerateOptions {
  task: TaskDefinition;
  lengths: LengthTarget[];
  samples: number;
  seed: number;
  tokenizer: Tokenizer;
  format: GenerateFormat;
  out: string;
  cacheDir: string;
  /** Task options (e.g. ruler-hqa placement); part of the cache key. */
  options?: Record<string, string>;
  /** Called after each row is written. */
  onRow?(done: number, total: number, length: LengthTarget): void;
  /** The task already prepared with these options (its grid was read from it). */
  prepared?: PreparedTask;
}

export interface GenerateLengthResult {
  label: string;
  /** The file this length's rows went to (the same file for every length with --format native). */
  path: string;
  rows: number;
  /** All rows came from the cache. */
  cacheHit: boolean;
  fromCache: number;
  generated: number;
  cachePath: string;
}

export interface GenerateResult {
  /** --out: the file (native) or the folder holding one file per length (ruler, memagent). */
  out: string;
  rows: number;
  /** Every length came from the cache. */
  cacheHit: boolean;
  lengths: GenerateLengthResult[];
}

function checkOut(layout: GenerateLayout, out: string): void {
  const perLength = layout.perLength;
  if (perLength === undefined) return;
  if (/\.jsonl?$/i.test(out))
    throw new UserError(
      `--format ${layout.name} writes one file per length (${perLength}): pass --out DIR, not the file name '${out}'`,
    );
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UserError(
      `--out ${out} is a file; --format ${layout.name} writes one file per length under a folder (${perLength})`,
    );
}

/**
 * Generates `samples` samples per length (lengths in the given order, then sample index): with --format native into
 * the file `out`, with ruler and memagent into one file per length under the folder `out` (the layout's path). Rows
 * already in the cache are copied; missing rows are generated, added to the cache and written. Each output file is
 * written to a temporary name and renamed when it is complete, so an interrupted run leaves the old file (or none).
 */
export async function generateCommand(opts: GenerateOptions, catalog: GenerateCatalog): Promise<GenerateResult> {
  const { task, lengths, samples, seed, tokenizer, format, out } = opts;
  if (!Number.isInteger(samples) || samples < 1)
    throw new UserError(`--samples must be a positive whole number, got ${samples}`);
  const layout = catalog.generateLayouts.find(format);
  if (!layout) throw new UserError(`unknown --format '${format}': use ${catalog.generateFormats().join(', ')}`);
  const perLength = layout.perLength !== undefined;
  if (lengths.length === 0) throw new UserError('no lengths to generate: pass --lengths, e.g. 32k');
  for (const l of lengths) {
    if (l.kind === 'docs' && !task.acceptsDocCounts)
      throw new UserError(`${task.name} takes token lengths (e.g. 32k), not ${l.label}`);
  }
  checkOut(layout, out);
  const paths = lengths.map((l) => layout.path(out, task.name, l));
  const duplicate = paths.find((p, k) => perLength && paths.indexOf(p) !== k);
  if (duplicate !== undefined)
    throw new UserError(`two lengths would write the same file ${duplicate}: list each length once`);
  const options = opts.options ?? {};
  const cache = new DatasetCache(opts.cacheDir);
  let prepared: PreparedTask | undefined = opts.prepared;
  const prepare = async () => (prepared ??= await task.prepare({ tokenizer, seed, options }));

  const identity = (length: LengthTarget, index: number) => ({
    task: task.name,
    taskVersion: task.version,
    length,
    index,
  });
  if (layout.check) layout.check(withRunnerIdentity((await prepare()).build(lengths[0], 0), identity(lengths[0], 0)));

  const results: GenerateLengthResult[] = [];
  let total = 0;
  // native: one file for every length; ruler, memagent: one per length, each committed when its rows are written.
  let output: AtomicFile | undefined;
  try {
    for (const [k, length] of lengths.entries()) {
      const path = paths[k];
      if (!output) {
        mkdirSync(dirname(path) || '.', { recursive: true });
        output = openAtomic(path);
      }
      const outFd = output.fd;
      const key: DatasetKey = {
        task: task.name,
        taskVersion: task.version,
        length,
        seed,
        tokenizer: tokenizer.id,
        generator: GENERATE_ROWS_VERSION,
        format,
        options,
      };
      const cached = cache.lookup(key);
      let n = samples;
      if (!cached || cached.rows < samples) n = Math.min(samples, (await prepare()).maxSamples(length));
      if (n < 1) throw new UserError(`${task.name} has no samples at ${length.label}`);
      if (cached && cached.rows >= n) {
        copyLines(cached.path, n, [outFd]);
        results.push({
          label: length.label,
          path,
          rows: n,
          cacheHit: true,
          fromCache: n,
          generated: 0,
          cachePath: cached.path,
        });
        opts.onRow?.(n, n, length);
      } else {
        const p = await prepare();
        refuseBeyondLimit(task, p, [length]);
        const entry = cache.begin(key, n);
        try {
          const reuse = cached ? copyLines(cached.path, cached.rows, [entry.fd, outFd]) : 0;
          for (let i = reuse; i < n; i++) {
            // The same identity the runner gives a sample, so ids in generated files match a run's records.
            const sample = withRunnerIdentity(p.build(length, i), identity(length, i));
            writeJsonRow([entry.fd, outFd], layout.row(sample, tokenizer));
            opts.onRow?.(i + 1, n, length);
          }
          const cachePath = entry.commit();
          results.push({
            label: length.label,
            path,
            rows: n,
            cacheHit: false,
            fromCache: reuse,
            generated: n - reuse,
            cachePath,
          });
        } catch (err) {
          entry.abort();
          throw err;
        }
      }
      total += n;
      if (perLength) {
        output.commit();
        output = undefined;
      }
    }
    output?.commit();
  } catch (err) {
    output?.abort();
    throw err;
  }
  return { out, rows: total, cacheHit: results.every((r) => r.cacheHit), lengths: results };
}

export async function generateCli(cmd: CommandOf<'generate'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const catalog = await ctx.catalog();
  const task = catalog.task(cmd.task);
  checkOutputFile(cmd.out, '--out', 'pass a file in a writable directory, e.g. --out data.jsonl');
  const tokenizer = loadTokenizer(cmd.tokenizer);
  // As `bench run` takes them: a data file's own lengths, LongBench's one native point, else --lengths or the default.
  let prepared: PreparedTask | undefined;
  if (task.nativeLengths || cmd.options.data !== undefined)
    prepared = await task.prepare({ tokenizer, seed: cmd.seed, options: cmd.options });
  const lengths = prepared ? gridFor(task, prepared, cmd) : (cmd.lengths ?? parseLengths(task.defaultLengths));
  const result = await generateCommand(
    {
      task,
      lengths,
      prepared,
      samples: cmd.samples ?? (prepared?.lengths ? Number.MAX_SAFE_INTEGER : task.defaultSamples),
      seed: cmd.seed,
      tokenizer,
      format: cmd.format,
      out: cmd.out,
      cacheDir: datasetCacheDir(),
      options: cmd.options,
    },
    catalog,
  );
  const short =
    cmd.samples === undefined
      ? []
      : result.lengths.filter((l) => l.rows < cmd.samples!).map((l) => ({ label: l.label, available: l.rows }));
  if (short.length > 0) io.err(samplesCappedNote({ task: task.name, requested: cmd.samples!, lengths: short }));
  const perLength = catalog.generateLayouts.get(cmd.format).perLength !== undefined;
  for (const l of result.lengths)
    io.out(
      `${l.label}: ${plural(l.rows, 'sample')} (${l.cacheHit ? 'from cache' : `${l.generated} generated`})${perLength ? ` -> ${l.path}` : ''}`,
    );
  io.out(
    perLength
      ? `wrote ${plural(result.rows, 'row')} in ${plural(result.lengths.length, 'file')} under ${result.out}`
      : `wrote ${plural(result.rows, 'row')} to ${result.out}`,
  );
  return 0;
}
