// LongBench-style hotpotqa rows built from the bundled HotpotQA dev subset (CC BY-SA 4.0), so the LongBench tasks
// run with no download. Passages use LongBench's layout (docs/PROTOCOLS.md §e.6): `Passage {i}:\n{title}\n{text}`,
// consecutive passages separated by a single newline. Deterministic: no seed option, fixed streams.
import { pySplit } from '../../harness/protocol/pytext.js';
import { rngFor } from '../../harness/util/rng.js';
import type { LongBenchRow } from './load.js';

/** A multi-hop QA record in dev order, as the HotpotQA reader (generators/ruler-hqa/hotpotqa.ts) returns them. */
export interface SourceQuestion {
  id: string;
  question: string;
  answer: string;
  /** [title, sentences] pairs. */
  paragraphs: ReadonlyArray<readonly [string, readonly string[]]>;
}

/** RULER-HQA uses the first 128 questions; the fixture takes the next ones. */
export const FIXTURE_FIRST_QUESTION = 128;
export const FIXTURE_ROWS = 50;

interface Passage {
  title: string;
  text: string;
  words: number;
}

function passage(title: string, sentences: readonly string[]): Passage {
  const text = sentences.join('').trim();
  return { title, text, words: pySplit(`${title} ${text}`).length + 2 }; // + "Passage", "{i}:"
}

/** Word budget of row j: a third keep only the question's own 10 paragraphs; the rest are padded with other
 *  questions' paragraphs into LongBench-E's 4-8k and 8k+ buckets. */
function targetWords(j: number, id: string): number | null {
  const rng = rngFor('longbench-fixture', 'hotpotqa', id, 'target');
  if (j % 3 === 0) return null;
  return j % 3 === 1 ? rng.int(4300, 7600) : rng.int(8400, 11000);
}

function distractorPool(records: readonly SourceQuestion[]): Passage[] {
  const seen = new Set<string>();
  const pool: Passage[] = [];
  for (const r of records) {
    for (const [title, sentences] of r.paragraphs) {
      if (seen.has(title)) continue;
      seen.add(title);
      pool.push(passage(title, sentences));
    }
  }
  return pool;
}

function buildRow(record: SourceQuestion, j: number, pool: readonly Passage[]): LongBenchRow {
  const own = record.paragraphs.map(([title, sentences]) => passage(title, sentences));
  const passages = [...own];
  const target = targetWords(j, record.id);
  if (target !== null) {
    const titles = new Set(own.map((p) => p.title));
    const answer = record.answer.toLowerCase();
    const checkAnswer = answer !== 'yes' && answer !== 'no' && answer.length >= 3;
    let words = own.reduce((n, p) => n + p.words, 0);
    const order = rngFor('longbench-fixture', 'hotpotqa', record.id, 'distractors').shuffle(pool.map((_, i) => i));
    for (const i of order) {
      if (target - words < 40) break;
      const p = pool[i];
      if (titles.has(p.title) || words + p.words > target) continue;
      if (checkAnswer && `${p.title}\n${p.text}`.toLowerCase().includes(answer)) continue;
      titles.add(p.title);
      passages.push(p);
      words += p.words;
    }
  }
  rngFor('longbench-fixture', 'hotpotqa', record.id, 'order').shuffle(passages);
  const context = passages.map((p, i) => `Passage ${i + 1}:\n${p.title}\n${p.text}`).join('\n');
  return {
    input: record.question,
    context,
    answers: [record.answer],
    length: pySplit(context).length,
    dataset: 'hotpotqa',
    language: 'en',
    all_classes: null,
    _id: record.id,
  };
}

/** The 50 fixture rows: questions 128..177 of the subset (dev order), distractors from questions 178 onwards. */
export function buildFixtureRows(data: { records: readonly SourceQuestion[] }): LongBenchRow[] {
  const end = FIXTURE_FIRST_QUESTION + FIXTURE_ROWS;
  const questions = data.records.slice(FIXTURE_FIRST_QUESTION, end);
  const pool = distractorPool(data.records.slice(end));
  return questions.map((record, j) => buildRow(record, j, pool));
}

export function toJsonl(rows: readonly LongBenchRow[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
