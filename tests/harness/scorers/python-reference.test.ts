// Exact agreement (===, no tolerance) with outputs that CPython computed; see fixtures/README.md.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { sequenceMatcherRatio } from '../../../generators/longbench/difflib.js';
import { qaF1 } from '../../../generators/longbench/metrics.js';
import { pySplit, pyStrip } from '../../../harness/protocol/pytext.js';
import { pyRound } from '../../../harness/protocol/round.js';
import { normalizeAnswer } from '../../../harness/scorers/qa.js';
import { pltrdyRouge } from '../../../generators/longbench/rouge-pltrdy.js';

interface Prf {
  f: number;
  p: number;
  r: number;
}
type Case =
  | { kind: 'rouge'; a: string; b: string; expected: { rouge1: Prf; rouge2: Prf; rougeL: Prf } | null }
  | { kind: 'qa_f1'; a: string; b: string; expected: number }
  | { kind: 'ratio'; a: string; b: string; expected: number }
  | { kind: 'norm'; a: string; expected: string }
  | { kind: 'round'; x: number; d: number; expected: number }
  | { kind: 'strip'; a: string; expected: { strip: string; split: string[] } };

const fixture = JSON.parse(readFileSync(new URL('./fixtures/python-reference.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

function cases<K extends Case['kind']>(kind: K): Extract<Case, { kind: K }>[] {
  return fixture.cases.filter((c): c is Extract<Case, { kind: K }> => c.kind === kind);
}

describe('agreement with CPython reference outputs', () => {
  it('pltrdy ROUGE-1/2/L f, p, r and where it raises', () => {
    const all = cases('rouge');
    assert.ok(all.length > 400);
    assert.ok(all.some((c) => c.expected === null) && all.some((c) => c.expected !== null));
    for (const c of all) {
      const got = pltrdyRouge(c.a, c.b);
      if (c.expected === null) assert.equal(got.ok, false, JSON.stringify([c.a.slice(0, 80), c.b.slice(0, 80)]));
      else {
        assert.ok(got.ok, JSON.stringify([c.a.slice(0, 80), c.b.slice(0, 80)]));
        assert.deepEqual({ rouge1: got.rouge1, rouge2: got.rouge2, rougeL: got.rougeL }, c.expected);
      }
    }
  });

  it('LongBench qa_f1 and normalize_answer', () => {
    for (const c of cases('qa_f1')) assert.equal(qaF1(c.a, c.b), c.expected, JSON.stringify(c));
    for (const c of cases('norm')) assert.equal(normalizeAnswer(c.a), c.expected, JSON.stringify(c));
  });

  it('difflib SequenceMatcher ratio, autojunk included', () => {
    const all = cases('ratio');
    assert.ok(all.some((c) => Array.from(c.b).length >= 200));
    for (const c of all) assert.equal(sequenceMatcherRatio(c.a, c.b), c.expected, JSON.stringify(c));
  });

  it('round(x, d) and str.strip()/split()', () => {
    for (const c of cases('round')) assert.equal(pyRound(c.x, c.d), c.expected, JSON.stringify(c));
    for (const c of cases('strip')) {
      assert.equal(pyStrip(c.a), c.expected.strip, JSON.stringify(c));
      assert.deepEqual(pySplit(c.a), c.expected.split, JSON.stringify(c));
    }
  });
});
