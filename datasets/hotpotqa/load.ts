import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';

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

/** Loads HotpotQA dev (distractor) records in dev order: the bundled subset, or a user's file. */
export function loadHotpot(path?: string): HotpotData {
  const file = path ?? datasetPath(BUNDLED_HOTPOT);
  const hit = cache.get(file);
  if (hit) return hit;
  if (!existsSync(file)) throw new UserError(`HotpotQA file not found: ${file} (pass the dev distractor JSON with --data)`);
  const raw = readFileSync(file);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  let rows: unknown;
  const gzip = raw[0] === 0x1f && raw[1] === 0x8b; // by content, not by name
  try {
    rows = JSON.parse((gzip ? gunzipSync(raw) : raw).toString('utf8'));
  } catch {
    throw new UserError(`${file} is not valid JSON${gzip ? ' (gzip)' : ''}: expected the HotpotQA dev distractor file`);
  }
  if (!Array.isArray(rows)) throw new UserError(`${file}: expected a JSON array of HotpotQA records`);
  const records = rows.map((row, i) => toRecord(row, i, file));
  records.sort((a, b) => a.devIndex - b.devIndex);
  const data = { records, source: file, sha256 };
  cache.set(file, data);
  return data;
}

function toRecord(row: unknown, position: number, file: string): HotpotRecord {
  const r = row as Record<string, unknown>;
  const bad = (what: string) => new UserError(`${file}: record ${position} ${what}; expected HotpotQA fields _id, question, answer, supporting_facts, context`);
  if (typeof r !== 'object' || r === null) throw bad('is not an object');
  if (typeof r.question !== 'string' || typeof r.answer !== 'string') throw bad('lacks question/answer strings');
  if (!Array.isArray(r.context)) throw bad('lacks a context list');
  const paragraphs = r.context.map((p) => {
    if (!Array.isArray(p) || typeof p[0] !== 'string' || !Array.isArray(p[1])) throw bad('has a malformed context paragraph');
    return [p[0], p[1].map(String)] as [string, string[]];
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
