// `bench generate`: writes a task's samples as JSONL in the layouts other tools read, through the dataset cache.
//   ruler:    {index, input, outputs, length, answer_prefix?}  (NVIDIA/RULER data files: `input` is the whole prompt
//             before the answer prefix; `length` = tokens of input + answer prefix + the generation budget)
//   memagent: {index, input, context, answers, outputs, length} (MemAgent's taskutils/memory_eval: ruler_general.py
//             reads `context`, `input`, `outputs`; ruler_hqa.py reads `answers`; `length` = context tokens)
//   native:   every Sample field, context last.
import { dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import { UserError } from '../errors.js';
import { fillTemplate, FULL_CONTEXT_PHRASE } from '../methods/templates.js';
import type { ContextSource, LengthTarget, PreparedTask, Sample, TaskDefinition, Tokenizer } from '../types.js';
import { copyLines, DatasetCache, type DatasetKey, writeJsonRow, type StreamedText } from '../cache/dataset-cache.js';
import { openAtomic } from '../run-dir/atomic-write.js';
import { datasetCacheDir } from '../cache/cache-root.js';
import type { CommandIO, CommandOf } from '../config/commands.js';
import { parseLengths } from '../config/lengths.js';
import { getTask } from '../../generators/index.js';
import { samplesCappedNote } from '../runner/plan.js';
import { checkOutputFile } from '../path-checks.js';
import { loadTokenizer } from '../tokenizer/index.js';

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
  rows: number;
  /** All rows came from the cache. */
  cacheHit: boolean;
  fromCache: number;
  generated: number;
  cachePath: string;
}

export interface GenerateResult {
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

/**
 * Generates `samples` samples per length into `out` (JSONL, lengths in the given order, then sample index). Rows
 * already in the cache are copied; missing rows are generated, added to the cache and written. The output file is
 * written to a temporary name and renamed at the end, so an interrupted run leaves the old file (or none).
 */
export async function generateCommand(opts: GenerateOptions): Promise<GenerateResult> {
  const { task, lengths, samples, seed, tokenizer, format, out } = opts;
  if (!Number.isInteger(samples) || samples < 1) throw new UserError(`--samples must be a positive whole number, got ${samples}`);
  if (!GENERATE_FORMATS.includes(format)) throw new UserError(`unknown --format '${format}': use ${GENERATE_FORMATS.join(', ')}`);
  if (lengths.length === 0) throw new UserError('no lengths to generate: pass --lengths, e.g. 32k');
  for (const l of lengths) {
    if (l.kind === 'docs' && !task.acceptsDocCounts) throw new UserError(`${task.name} takes token lengths (e.g. 32k), not ${l.label}`);
  }
  const options = opts.options ?? {};
  const cache = new DatasetCache(opts.cacheDir);
  let prepared: PreparedTask | undefined;
  const prepare = async () => (prepared ??= await task.prepare({ tokenizer, seed, options }));

  mkdirSync(dirname(out) || '.', { recursive: true });
  const output = openAtomic(out);
  const outFd = output.fd;
  const results: GenerateLengthResult[] = [];
  let total = 0;
  try {
    for (const length of lengths) {
      const key: DatasetKey = { task: task.name, taskVersion: task.version, length, seed, tokenizer: tokenizer.id, generator: GENERATE_ROWS_VERSION, format, options };
      const cached = cache.lookup(key);
      let n = samples;
      if (!cached || cached.rows < samples) n = Math.min(samples, (await prepare()).maxSamples(length));
      if (n < 1) throw new UserError(`${task.name} has no samples at ${length.label}`);
      if (cached && cached.rows >= n) {
        copyLines(cached.path, n, [outFd]);
        results.push({ label: length.label, rows: n, cacheHit: true, fromCache: n, generated: 0, cachePath: cached.path });
        total += n;
        opts.onRow?.(n, n, length);
        continue;
      }
      const p = await prepare();
      const entry = cache.begin(key, n);
      try {
        const reuse = cached ? copyLines(cached.path, cached.rows, [entry.fd, outFd]) : 0;
        for (let i = reuse; i < n; i++) {
          const sample = p.build(length, i);
          writeJsonRow([entry.fd, outFd], formatRow(sample, format, tokenizer));
          opts.onRow?.(i + 1, n, length);
        }
        const path = entry.commit();
        results.push({ label: length.label, rows: n, cacheHit: false, fromCache: reuse, generated: n - reuse, cachePath: path });
        total += n;
      } catch (err) {
        entry.abort();
        throw err;
      }
    }
    output.commit();
  } catch (err) {
    output.abort();
    throw err;
  }
  return { out, rows: total, cacheHit: results.every((r) => r.cacheHit), lengths: results };
}

export async function generateCli(cmd: CommandOf<'generate'>, io: CommandIO): Promise<number> {
  const task = getTask(cmd.task);
  checkOutputFile(cmd.out, '--out', 'pass a file in a writable directory, e.g. --out data.jsonl');
  const lengths = cmd.lengths ?? parseLengths(task.defaultLengths);
  const result = await generateCommand({
    task, lengths, samples: cmd.samples ?? task.defaultSamples, seed: cmd.seed, tokenizer: loadTokenizer(cmd.tokenizer),
    format: cmd.format, out: cmd.out, cacheDir: datasetCacheDir(), options: cmd.options,
  });
  const short = cmd.samples === undefined ? [] : result.lengths.filter((l) => l.rows < cmd.samples!).map((l) => ({ label: l.label, available: l.rows }));
  if (short.length > 0) io.err(samplesCappedNote({ task: task.name, requested: cmd.samples!, lengths: short }));
  for (const l of result.lengths) io.out(`${l.label}: ${l.rows} samples (${l.cacheHit ? 'from cache' : `${l.generated} generated`})`);
  io.out(`wrote ${result.rows} rows to ${result.out}`);
  return 0;
}
