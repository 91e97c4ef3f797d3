// The gold answers of RULER's vt, cwe, fwe and qa tasks, recomputed from the generated text alone: what a reader of
// the context would find is what the sample calls gold. Both flavours, two lengths, through `bench generate`.
import { beforeAll, describe, expect, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runBench } from '../../helpers/cli.js';

interface Row {
  question: string;
  answers: string[];
  context: string;
  prompt?: unknown;
}

const SAMPLES = 12;
const LENGTHS = '8k,32k';
let dir: string;
const rows = new Map<string, Row[]>();

async function generate(task: string, flavour: string): Promise<Row[]> {
  const out = join(dir, `${task}-${flavour}.jsonl`);
  const r = await runBench(
    [
      'generate',
      task,
      '--lengths',
      LENGTHS,
      '--samples',
      String(SAMPLES),
      '--flavour',
      flavour,
      '--format',
      'native',
      '--out',
      out,
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  return readFileSync(out, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Row);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bench-ruler-gold-'));
  for (const task of ['vt', 'cwe', 'fwe', 'qa_1', 'qa_2'])
    for (const flavour of ['memagent', 'ruler']) rows.set(`${task}/${flavour}`, await generate(task, flavour));
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text a sample's reader sees: the context, or for RULER's flavour the prompt that holds it. */
function haystack(r: Row): string {
  return r.context !== undefined && r.context !== '' ? r.context : JSON.stringify(r.prompt);
}

/** Counts of each word in `text` (lowercase letters only). */
function counts(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

function top(m: Map<string, number>, k: number): { words: string[]; next: number } {
  const sorted = [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { words: sorted.slice(0, k).map(([w]) => w), next: sorted[k]?.[1] ?? 0 };
}

describe.each(['memagent', 'ruler'])('%s flavour', (flavour) => {
  test('vt: the gold is every variable whose chain resolves to the queried value', () => {
    for (const r of rows.get(`vt/${flavour}`)!) {
      const value = [...r.question.matchAll(/assigned the value (\w+)/g)].pop()?.[1];
      assert.ok(value, r.question);
      const text = haystack(r);
      // Only the sample's own chains, not the in-context example before "Question:" in RULER's prompt.
      const own = text.slice(Math.max(0, text.lastIndexOf('Memorize and track')));
      const found = new Set<string>();
      let grew = true;
      while (grew) {
        grew = false;
        for (const m of own.matchAll(/VAR ([A-Z]+) = (VAR )?(\w+)/g)) {
          const [, name, isVar, rhs] = m;
          if (found.has(name)) continue;
          if ((isVar === undefined && rhs === value) || (isVar !== undefined && found.has(rhs))) {
            found.add(name);
            grew = true;
          }
        }
      }
      expect([...found].sort()).toEqual([...r.answers].sort());
      expect(r.answers).toHaveLength(5); // 1 chain × 4 hops: the root and four reassignments
    }
  });

  test('cwe: the gold is the 10 most frequent words of the numbered list, with a gap to the 11th', () => {
    for (const r of rows.get(`cwe/${flavour}`)!) {
      const text = haystack(r);
      // The sample's own list is the last numbered list in the text (RULER's prompt shows an example list first).
      const lists = text.split(/(?=\b1\. )/);
      const own = lists[lists.length - 1];
      const words = [...own.matchAll(/\b\d+\. ([a-z]+)/g)].map((m) => m[1]);
      const { words: best, next } = top(counts(words), 10);
      expect([...best].sort()).toEqual([...r.answers].sort());
      const c = counts(words);
      expect(Math.min(...r.answers.map((a) => c.get(a)!))).toBeGreaterThan(next);
    }
  });

  test('fwe: the gold is the 3 most frequent coded words', () => {
    for (const r of rows.get(`fwe/${flavour}`)!) {
      const text = haystack(r);
      const words = [...text.matchAll(/(?<![\w.])([a-z]{6})(?![\w])/g)].map((m) => m[1]);
      const { words: best } = top(counts(words), 3);
      expect([...best].sort()).toEqual([...r.answers].sort());
    }
  });

  test.each(['qa_1', 'qa_2'])('%s: a gold answer is in the documents (yes/no answers aside)', (task) => {
    let checked = 0;
    for (const r of rows.get(`${task}/${flavour}`)!) {
      const text = haystack(r).toLowerCase();
      if (r.answers.every((a) => /^(yes|no)$/i.test(a))) continue;
      checked++;
      assert.ok(
        r.answers.some((a) => text.includes(a.toLowerCase())),
        `${r.question}: none of ${JSON.stringify(r.answers)} in the documents`,
      );
    }
    expect(checked).toBeGreaterThan(SAMPLES);
  });
});
