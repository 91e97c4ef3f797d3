// `bench generate`: writes a task's samples as JSONL in the layouts other tools read, through the dataset cache.
//   ruler:    {index, input, outputs, length, answer_prefix?}  (NVIDIA/RULER data files: `input` is the whole prompt
//             before the answer prefix; `length` = tokens of input + answer prefix + the generation budget), one file
//             per length as RULER lays them out: OUT/<tokens>/data/<task>/validation.jsonl, where OUT stands for
//             RULER's <root>/<model>/synthetic (scripts/run.sh; pred/call_api.py reads <data_dir>/<task>/validation.jsonl
//             with --data_dir OUT/<tokens>/data).
//   memagent: {index, input, context, answers, outputs, length} (MemAgent's taskutils/memory_eval: ruler_general.py
//             reads `context`, `input`, `outputs`; ruler_hqa.py reads `answers`; `length` = context tokens), one file
//             per length as MemAgent names them under its DATAROOT: OUT/eval_<N>.json for ruler-hqa at docs:N
//             (ruler_hqa.py), OUT/eval_<task>_<tokens>.json otherwise (ruler_general.py). The files hold JSON Lines,
//             which the scripts' load_dataset("json", ...) reads as it reads a JSON list.
//   native:   every Sample field, context last; all lengths in the one file OUT.
import { dirname, join } from 'node:path';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { UserError } from '../../harness/errors.js';
import { fillTemplate, FULL_CONTEXT_PHRASE } from '../../harness/methods/templates.js';
import type { ContextSource, LengthTarget, PreparedTask, Sample, TaskDefinition, Tokenizer } from '../../harness/types.js';
import { copyLines, DatasetCache, type DatasetKey, writeJsonRow, type StreamedText } from '../../harness/cache/dataset-cache.js';
import { openAtomic, type AtomicFile } from '../../harness/run-dir/atomic-write.js';
import { datasetCacheDir } from '../../harness/cache/cache-root.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { parseLengths } from '../../harness/config/lengths.js';
import type { CliContext } from '../context.js';
import { samplesCappedNote } from '../../harness/runner/plan.js';
import { checkOutputFile } from '../../harness/path-checks.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';

export type GenerateFormat = 'ruler' | 'memagent' | 'native';
export const GENERATE_FORMATS: readonly GenerateFormat[] = ['ruler', 'memagent', 'native'];

/** Version of the row layouts below; part of the cache key. 2: native rows carry `scoring`. */
export const GENERATE_ROWS_VERSION = '2';

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

interface TextStreaming {
  textPieces(): Iterable<string>;
}

function contextText(c: ContextSource): Iterable<string> {
  const s = c as Partial<TextStreaming>;
  return typeof s.textPieces === 'function' ? s.textPieces() : [c.text()];
}

/** The one-shot prompt around the context, split at the context: RULER's `input` is before + context + after. */
function promptFrame(sample: Sample): { before: string; after: string } {
  const template = sample.prompt?.nativeTemplate ?? sample.prompt?.fullContext ?? FULL_CONTEXT_PHRASE;
  const marker = '\u0000';
  const filled = fillTemplate(template, { question: sample.question.trim(), context: marker });
  const at = filled.indexOf(marker);
  if (at < 0) throw new Error(`task ${sample.task}: its prompt template has no {context} placeholder`);
  return { before: filled.slice(0, at), after: filled.slice(at + marker.length) };
}

function streamed(parts: Iterable<string>): StreamedText {
  return { streamed: parts };
}

function* concat(...parts: Iterable<string>[]): Generator<string> {
  for (const p of parts) yield* p;
}

function promptTokens(sample: Sample, tokenizer: Tokenizer, before: string, after: string): number {
  const known = sample.metadata.prompt_tokens;
  if (typeof known === 'number') return known;
  return tokenizer.count(before + sample.context.text() + after + (sample.prompt?.answerPrefix ?? ''));
}

export function formatRow(sample: Sample, format: GenerateFormat, tokenizer: Tokenizer): Array<[string, unknown]> {
  if (format === 'ruler') {
    const { before, after } = promptFrame(sample);
    const maxNew = sample.prompt?.maxNewTokens ?? 1024;
    const row: Array<[string, unknown]> = [
      ['index', sample.index],
      ['input', streamed(concat([before], contextText(sample.context), [after]))],
      ['outputs', sample.answers],
      ['length', promptTokens(sample, tokenizer, before, after) + maxNew],
    ];
    if (sample.prompt?.answerPrefix !== undefined) row.push(['answer_prefix', sample.prompt.answerPrefix]);
    return row;
  }
  if (format === 'memagent') {
    return [
      ['index', sample.index],
      ['input', sample.question],
      ['context', streamed(contextText(sample.context))],
      ['answers', sample.answers],
      ['outputs', sample.answers],
      ['length', sample.context.tokenCount],
    ];
  }
  return [
    ['id', sample.id],
    ['task', sample.task],
    ['task_version', sample.taskVersion],
    ['length', sample.length],
    ['index', sample.index],
    ['question', sample.question],
    ['answers', sample.answers],
    ['metric', sample.metric],
    ['scoring', sample.scoring ?? null],
    ['prompt', sample.prompt ?? null],
    ['context_tokens', sample.context.tokenCount],
    ['metadata', sample.metadata],
    ['context', streamed(contextText(sample.context))],
  ];
}

function taskFolder(task: string): string {
  return task.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** Where one length's rows go: RULER's and MemAgent's per-length files, or the one native file. */
export function generatedPath(format: GenerateFormat, out: string, task: string, length: LengthTarget): string {
  switch (format) {
    case 'ruler':
      if (length.kind !== 'tokens') {
        throw new UserError(
          `--format ruler lays data out by token length (OUT/<tokens>/data/<task>/validation.jsonl, as RULER's run.sh); ${length.label} is not a token length: use --format memagent or native`,
        );
      }
      return join(out, String(length.value), 'data', taskFolder(task), 'validation.jsonl');
    case 'memagent':
      if (length.kind === 'native')
        throw new UserError(
          `--format memagent lays data out as MemAgent's eval_<N>.json / eval_<task>_<length>.json, which have no LongBench files: use --format native`,
        );
      if (length.kind === 'docs' && task === 'ruler-hqa') return join(out, `eval_${length.value}.json`);
      return join(out, `eval_${taskFolder(task)}_${length.value}.json`);
    case 'native':
      return out;
  }
}

function checkOut(format: GenerateFormat, out: string): void {
  if (format === 'native') return;
  const layout =
    format === 'ruler'
      ? 'DIR/<tokens>/data/<task>/validation.jsonl'
      : 'DIR/eval_<N>.json or DIR/eval_<task>_<tokens>.json';
  if (/\.jsonl?$/i.test(out))
    throw new UserError(
      `--format ${format} writes one file per length (${layout}): pass --out DIR, not the file name '${out}'`,
    );
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UserError(
      `--out ${out} is a file; --format ${format} writes one file per length under a folder (${layout})`,
    );
}

/**
 * Generates `samples` samples per length (lengths in the given order, then sample index): with --format native into
 * the file `out`, with ruler and memagent into one file per length under the folder `out` (generatedPath). Rows
 * already in the cache are copied; missing rows are generated, added to the cache and written. Each output file is
 * written to a temporary name and renamed when it is complete, so an interrupted run leaves the old file (or none).
 */
export async function generateCommand(opts: GenerateOptions): Promise<GenerateResult> {
  const { task, lengths, samples, seed, tokenizer, format, out } = opts;
  if (!Number.isInteger(samples) || samples < 1)
    throw new UserError(`--samples must be a positive whole number, got ${samples}`);
  if (!GENERATE_FORMATS.includes(format))
    throw new UserError(`unknown --format '${format}': use ${GENERATE_FORMATS.join(', ')}`);
  if (lengths.length === 0) throw new UserError('no lengths to generate: pass --lengths, e.g. 32k');
  for (const l of lengths) {
    if (l.kind === 'docs' && !task.acceptsDocCounts)
      throw new UserError(`${task.name} takes token lengths (e.g. 32k), not ${l.label}`);
  }
  checkOut(format, out);
  const paths = lengths.map((l) => generatedPath(format, out, task.name, l));
  const duplicate = paths.find((p, k) => format !== 'native' && paths.indexOf(p) !== k);
  if (duplicate !== undefined)
    throw new UserError(`two lengths would write the same file ${duplicate}: list each length once`);
  const options = opts.options ?? {};
  const cache = new DatasetCache(opts.cacheDir);
  let prepared: PreparedTask | undefined;
  const prepare = async () => (prepared ??= await task.prepare({ tokenizer, seed, options }));

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
        const entry = cache.begin(key, n);
        try {
          const reuse = cached ? copyLines(cached.path, cached.rows, [entry.fd, outFd]) : 0;
          for (let i = reuse; i < n; i++) {
            const sample = p.build(length, i);
            writeJsonRow([entry.fd, outFd], formatRow(sample, format, tokenizer));
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
      if (format !== 'native') {
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
  const task = (await ctx.catalog()).task(cmd.task);
  checkOutputFile(cmd.out, '--out', 'pass a file in a writable directory, e.g. --out data.jsonl');
  const lengths = cmd.lengths ?? parseLengths(task.defaultLengths);
  const result = await generateCommand({
    task,
    lengths,
    samples: cmd.samples ?? task.defaultSamples,
    seed: cmd.seed,
    tokenizer: loadTokenizer(cmd.tokenizer),
    format: cmd.format,
    out: cmd.out,
    cacheDir: datasetCacheDir(),
    options: cmd.options,
  });
  const short =
    cmd.samples === undefined
      ? []
      : result.lengths.filter((l) => l.rows < cmd.samples!).map((l) => ({ label: l.label, available: l.rows }));
  if (short.length > 0) io.err(samplesCappedNote({ task: task.name, requested: cmd.samples!, lengths: short }));
  const perLength = cmd.format !== 'native';
  for (const l of result.lengths)
    io.out(
      `${l.label}: ${l.rows} samples (${l.cacheHit ? 'from cache' : `${l.generated} generated`})${perLength ? ` -> ${l.path}` : ''}`,
    );
  io.out(
    perLength
      ? `wrote ${result.rows} rows in ${result.lengths.length} file(s) under ${result.out}`
      : `wrote ${result.rows} rows to ${result.out}`,
  );
  return 0;
}
