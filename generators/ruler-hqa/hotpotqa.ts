// The HotpotQA dev (distractor) reader: the bundled subset in datasets/hotpotqa/ (its README and licences stay
// there with the data) or a user's dev file. RULER-HQA builds its questions and contexts from it.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';
import { decodeTextBytes } from '../../harness/text-file.js';

export interface HotpotRecord {
  id: string;
  devIndex: number;
  question: string;
  answer: string;
  type: string;
  supportingTitles: string[];
  /** [title, sentences] pairs, as in the dev file. */
  paragraphs: Array<[string, string[]]>;
}

export interface HotpotData {
  records: HotpotRecord[];
  source: string;
  sha256: string;
}

export const BUNDLED_HOTPOT = 'hotpotqa/hotpot_dev_distractor_subset.json.gz';

const cache = new Map<string, HotpotData>();

const EXPECTED = 'the HotpotQA dev distractor JSON (hotpot_dev_distractor_v1.json, optionally gzipped)';

/**
 * The longest paragraph accepted, in characters. HotpotQA paragraphs are Wikipedia lead paragraphs (the longest in
 * the bundled dev subset has 8,276 characters); a larger one is a broken file, and a question owning it would be
 * built far over any length target.
 */
export const MAX_PARAGRAPH_CHARS = 100_000;

/** Loads HotpotQA dev (distractor) records in dev order: the bundled subset, or a user's file. */
export function loadHotpot(path?: string): HotpotData {
  const file = path ?? datasetPath(BUNDLED_HOTPOT);
  const hit = cache.get(file);
  if (hit) return hit;
  if (!existsSync(file))
    throw new UserError(`HotpotQA file not found: ${file} (pass the dev distractor JSON with --data)`);
  if (statSync(file).isDirectory())
    throw new UserError(`--data ${file} is a directory; ruler-hqa takes one file: ${EXPECTED}`);
  const raw = readFileSync(file);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  const text = decodeTextBytes(raw, file, `pass ${EXPECTED}`);
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    throw new UserError(`${file} is not valid JSON: expected ${EXPECTED}`);
  }
  if (!Array.isArray(rows)) throw new UserError(`${file}: expected a JSON array of HotpotQA records`);
  if (rows.length === 0) throw new UserError(`no questions in ${file}: the JSON array is empty; expected ${EXPECTED}`);
  const records = rows.map((row, i) => toRecord(row, i, file));
  records.sort((a, b) => a.devIndex - b.devIndex);
  const data = { records, source: file, sha256 };
  cache.set(file, data);
  return data;
}

function toRecord(row: unknown, position: number, file: string): HotpotRecord {
  const r = row as Record<string, unknown>;
  const bad = (what: string) =>
    new UserError(
      `${file}: record ${position} ${what}; expected HotpotQA fields _id, question, answer, supporting_facts, context`,
    );
  if (typeof r !== 'object' || r === null) throw bad('is not an object');
  if (typeof r.question !== 'string' || typeof r.answer !== 'string') throw bad('lacks question/answer strings');
  if (!Array.isArray(r.context)) throw bad('lacks a context list');
  const paragraphs = r.context.map((p) => {
    if (!Array.isArray(p) || typeof p[0] !== 'string' || !Array.isArray(p[1]))
      throw bad('has a malformed context paragraph');
    const sentences = p[1].map(String);
    const chars = p[0].length + 1 + sentences.reduce((n, x) => n + x.length, 0);
    if (chars > MAX_PARAGRAPH_CHARS) {
      throw new UserError(
        `${file}: record ${position} (${JSON.stringify(String(r._id ?? position))}) has a paragraph '${p[0].slice(0, 60)}' of ${chars.toLocaleString('en-US')} characters; HotpotQA paragraphs are Wikipedia lead paragraphs and more than ${MAX_PARAGRAPH_CHARS.toLocaleString('en-US')} is refused (it would be built far over any length target): fix or drop that record`,
      );
    }
    return [p[0], sentences] as [string, string[]];
  });
  const facts = Array.isArray(r.supporting_facts) ? r.supporting_facts : [];
  const supportingTitles = [...new Set(facts.map((f) => String((f as unknown[])[0])))];
  return {
    id: String(r._id ?? position),
    devIndex: typeof r.dev_index === 'number' ? r.dev_index : position,
    question: r.question,
    answer: r.answer,
    type: String(r.type ?? ''),
    supportingTitles,
    paragraphs,
  };
}

/** A paragraph as MemAgent's pool renders it: title, newline, sentences concatenated with no separator. */
export function renderParagraph(title: string, sentences: string[]): string {
  return `${title}\n${sentences.join('')}`;
}
