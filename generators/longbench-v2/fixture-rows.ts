// The bundled LongBench v2 fixture: a few four-choice items in LongBench v2's data.json layout, built from the
// bundled HotpotQA dev subset. Synthetic: not LongBench v2 items; its length labels name relative sizes only
// (datasets/longbench-v2/README.md).
import { pySplit } from '../../harness/protocol/pytext.js';
import { rngFor } from '../../harness/util/rng.js';
import type { V2Row } from './load.js';

export interface SourceQuestion {
  id: string;
  question: string;
  answer: string;
  paragraphs: ReadonlyArray<readonly [string, readonly string[]]>;
}

/** Where the fixture's questions start in the subset (RULER-HQA takes 0-127, the LongBench v1 fixture 128-177). */
export const V2_FIXTURE_FIRST = 400;

/** Each item's difficulty and length label, and its document's word budget. */
const PLAN: ReadonlyArray<{ difficulty: 'easy' | 'hard'; length: 'short' | 'medium' | 'long'; words: number }> = [
  { difficulty: 'easy', length: 'short', words: 700 },
  { difficulty: 'hard', length: 'short', words: 700 },
  { difficulty: 'easy', length: 'medium', words: 1600 },
  { difficulty: 'hard', length: 'medium', words: 1600 },
  { difficulty: 'easy', length: 'long', words: 3200 },
  { difficulty: 'hard', length: 'long', words: 3200 },
  { difficulty: 'hard', length: 'short', words: 700 },
  { difficulty: 'easy', length: 'long', words: 3200 },
];

const LETTERS = ['A', 'B', 'C', 'D'] as const;

function text(title: string, sentences: readonly string[]): string {
  return `${title}\n${sentences.join('').trim()}`;
}

/** Items: the question's own paragraphs plus others' up to the word budget, shuffled; three other questions' answers
 *  (not yes/no, distinct from the gold case-insensitively) as distractors, the gold at a drawn letter. */
export function buildV2FixtureRows(data: { records: readonly SourceQuestion[] }): V2Row[] {
  const isOpen = (a: string) => !['yes', 'no'].includes(a.toLowerCase()) && a.length < 60;
  // The first questions from V2_FIXTURE_FIRST with an open answer (not yes/no); distractors from the next 400.
  const own = data.records
    .slice(V2_FIXTURE_FIRST)
    .filter((r) => isOpen(r.answer))
    .slice(0, PLAN.length);
  const after = data.records.indexOf(own[own.length - 1]) + 1;
  const pool = data.records.slice(after, after + 400);
  const answers = pool.map((r) => r.answer).filter(isOpen);
  return PLAN.map((plan, j) => {
    const record = own[j];
    const paragraphs = record.paragraphs.map(([t, s]) => text(t, s));
    const titles = new Set(record.paragraphs.map(([t]) => t));
    let words = paragraphs.reduce((n, p) => n + pySplit(p).length, 0);
    const order = rngFor('longbench-v2-fixture', record.id, 'distractors').shuffle(pool.map((_, i) => i));
    for (const i of order) {
      if (words >= plan.words) break;
      for (const [t, s] of pool[i].paragraphs) {
        if (titles.has(t) || words >= plan.words) continue;
        const p = text(t, s);
        if (p.toLowerCase().includes(record.answer.toLowerCase())) continue;
        titles.add(t);
        paragraphs.push(p);
        words += pySplit(p).length;
      }
    }
    rngFor('longbench-v2-fixture', record.id, 'order').shuffle(paragraphs);
    const rng = rngFor('longbench-v2-fixture', record.id, 'choices');
    const wrong: string[] = [];
    for (const a of rng.shuffle([...answers])) {
      if (wrong.length === 3) break;
      if (a.toLowerCase() === record.answer.toLowerCase() || wrong.some((w) => w.toLowerCase() === a.toLowerCase()))
        continue;
      wrong.push(a);
    }
    const gold = rng.int(0, 3);
    const choices = [...wrong];
    choices.splice(gold, 0, record.answer);
    return {
      _id: `synthetic-hotpotqa-${record.id}`,
      domain: 'Synthetic (HotpotQA)',
      sub_domain: 'Multi-hop QA',
      difficulty: plan.difficulty,
      length: plan.length,
      question: record.question,
      choice_A: choices[0],
      choice_B: choices[1],
      choice_C: choices[2],
      choice_D: choices[3],
      answer: LETTERS[gold],
      context: paragraphs.join('\n\n'),
    };
  });
}

/** data.json's layout: a JSON array, one item per line. */
export function toV2Json(rows: readonly V2Row[]): string {
  return `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
}
