// Fixtures in other tools' real file layouts, written by the tests, and an in-process `bench run`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCli } from '../../../cli/parse.js';
import { describeEvent } from '../../../cli/commands/run.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { executeRun, type RunOutcome } from '../../../harness/runner/runner.js';
import { runHooks } from '../../../cli/run-hooks.js';
import { builtinCatalog } from '../../../generators/index.js';
import { BUNDLED_HOTPOT, loadHotpot, renderParagraph } from '../../../generators/ruler-hqa/hotpotqa.js';
import { datasetPath } from '../../../harness/paths.js';
import { loadPoolFile } from '../../../generators/ruler-hqa/hotpot-pool.js';
import type { SampleRecord } from '../../../harness/types.js';

export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `bench-file-${tag}-`));
}

export function write(path: string, text: string | Buffer): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** JSONL as RULER, LongBench and our rows are written: one JSON object per line. */
export function jsonl(rows: unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** A JSON list as MemAgent writes it: `json.dump(rows, f, ensure_ascii=False, indent=4)`. */
export function jsonList(rows: unknown[]): string {
  return JSON.stringify(rows, null, 4);
}

export const BUNDLED_POOL = datasetPath(BUNDLED_HOTPOT);

export interface MemAgentFixture {
  /** Rows in MemAgent's layout, context as the list of pool indices. */
  indexRows: Array<{ context: number[]; input: string; answers: string[]; num_docs: number; index: number }>;
  /** The same rows with the text MemAgent's set_context renders from those indices. */
  textRows: Array<{ context: string; input: string; answers: string[]; num_docs: number; index: number }>;
  poolSize: number;
}

/**
 * Rows of MemAgent's different_docs_eval.py over the bundled HotpotQA file as pool: question q's own paragraphs plus
 * distractors, shuffled with a fixed seed (MemAgent uses Random(4)), `num_docs` documents. Indices may repeat once
 * num_docs exceeds the pool (the bundled pool is smaller than the dev file's).
 */
export function memagentRows(
  numDocs: number,
  questions: number,
  seed = 4,
  opts: { text?: boolean } = {},
): MemAgentFixture {
  const data = loadHotpot(BUNDLED_POOL);
  const pool = loadPoolFile(BUNDLED_POOL);
  const at = new Map(pool.texts.map((t, i) => [t, i]));
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const indexRows: MemAgentFixture['indexRows'] = [];
  const textRows: MemAgentFixture['textRows'] = [];
  for (let q = 0; q < questions; q++) {
    const r = data.records[q];
    const docs = r.paragraphs.map(([t, ss]) => at.get(renderParagraph(t, ss))!);
    while (docs.length < numDocs) docs.push(Math.floor(rnd() * pool.texts.length));
    for (let i = docs.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [docs[i], docs[j]] = [docs[j], docs[i]];
    }
    const base = { input: r.question, answers: [r.answer], num_docs: numDocs, index: r.devIndex };
    indexRows.push({ context: docs, ...base });
    if (opts.text !== false)
      textRows.push({ context: docs.map((d, i) => `Document ${i + 1}:\n${pool.texts[d]}`).join('\n\n'), ...base });
  }
  return { indexRows, textRows, poolSize: pool.texts.length };
}

/** `bench run ARGS` in this process with the embedded model; returns the outcome, the printed events and the records. */
export async function runInProcess(
  args: string[],
): Promise<{ outcome: RunOutcome; log: string[]; records: SampleRecord[]; manifest: Record<string, any> }> {
  const cmd = parseCli(['run', ...args, '--workers', '1', '--no-progress', '--no-cache']);
  assert.equal(cmd.command, 'run');
  if (cmd.command !== 'run') throw new Error('not a run');
  const log: string[] = [];
  const outcome = await executeRun(cmd.config, {
    ...runHooks(builtinCatalog()),
    onEvent: (e) => log.push(describeEvent(e)),
    createModel: async (_c, tokenizer) => createLocalModel(tokenizer),
  });
  assert.equal(outcome.kind, 'finished');
  if (outcome.kind !== 'finished') throw new Error('not finished');
  const records = readFileSync(join(outcome.outDir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as SampleRecord);
  const manifest = JSON.parse(readFileSync(join(outcome.outDir, 'manifest.json'), 'utf8'));
  return { outcome, log, records, manifest };
}

/** A noise haystack as RULER's niah.py builds it for niah_single_1: noise lines with the needle inserted, "\n"-joined. */
export function noiseHaystack(lines: number, needleAt: number, key: string, value: string): string {
  const noise = 'The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.';
  const out = Array.from({ length: lines }, () => noise);
  out.splice(needleAt, 0, `One of the special magic numbers for ${key} is: ${value}.`);
  return out.join('\n');
}

/**
 * One row of RULER's validation.jsonl for niah_single_1 (scripts/data/synthetic/niah.py): the `base` template (or a
 * chat template around it), the answer prefix cut off into its own field, `index` = the answer's character offset.
 */
export function rulerRow(
  key: string,
  value: string,
  lines: number,
  opts: { chat?: boolean; removeNewlines?: boolean; length?: number } = {},
) {
  const task =
    'A special magic number is hidden within the following text. Make sure to memorize it. I will quiz you about the number afterwards.\n' +
    `${noiseHaystack(lines, Math.floor(lines / 3), key, value)}\nWhat is the special magic number for ${key} mentioned in the provided text?`;
  const answerPrefix = ` The special magic number for ${key} mentioned in the provided text is`;
  let input = opts.chat
    ? `<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n${task}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`
    : task;
  if (opts.removeNewlines)
    input = input
      .replace(/[\n\t]/g, ' ')
      .trim()
      .split(/\s+/)
      .join(' ');
  const length = opts.length ?? 4000;
  return {
    index: input.indexOf(value),
    input,
    outputs: [value],
    length,
    length_w_model_temp: length,
    answer_prefix: answerPrefix,
    token_position_answer: 1234,
  };
}
