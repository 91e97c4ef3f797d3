// The over-target rule in the RULER-HQA generator: a context sized to a token target holds the question's own
// paragraphs even when they alone exceed the target, and then says so in its metadata; otherwise it never exceeds it.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLengths } from '../../../harness/config/lengths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { loadHotpot, MAX_PARAGRAPH_CHARS } from '../../../generators/ruler-hqa/hotpotqa.js';
import { checkSupportingFacts, rulerHqaTask } from '../../../generators/ruler-hqa/index.js';
import { UserError } from '../../../harness/errors.js';
import { hotpotRows, writeHotpot } from '../../helpers/hotpot.js';

const tokenizer = loadTokenizer('qwen2.5');
const dir = mkdtempSync(join(tmpdir(), 'hqa-over-target-'));
process.env.BENCH_CACHE_DIR = join(dir, 'cache');
const data = writeHotpot(dir, 'three.json');

test("a target below the question's own paragraphs: only those, marked over_target with built and target tokens", async () => {
  const t = await rulerHqaTask.prepare({ tokenizer, seed: 42, options: { data } });
  const [k1] = parseLengths('1k');
  for (const index of [0, 1, 2]) {
    const s = t.build(k1, index);
    assert.ok(s.context.tokenCount > 1024);
    assert.equal(s.metadata.num_docs, 10, "the question's own 10 paragraphs and no distractor");
    assert.equal(s.metadata.distractors, 0);
    assert.equal(s.metadata.over_target, true);
    assert.equal(s.metadata.target_tokens, 1024);
    assert.equal(s.metadata.built_tokens, s.context.tokenCount);
  }
});

test('a target the own paragraphs fit in is never exceeded and carries no over_target key', async () => {
  const t = await rulerHqaTask.prepare({ tokenizer, seed: 42, options: { data } });
  for (const spec of ['2k', '8k', 'docs:10', 'docs:40']) {
    const [len] = parseLengths(spec);
    for (const index of [0, 1, 2]) {
      const s = t.build(len, index);
      if (len.kind === 'tokens') assert.ok(s.context.tokenCount <= len.value, `${spec}/${index}`);
      assert.ok(!('over_target' in s.metadata), `${spec}/${index}`);
    }
  }
});

test('a paragraph over MAX_PARAGRAPH_CHARS is refused when the data is read, before any tokenizing', () => {
  const rows = hotpotRows(2);
  rows[0].context[3][1] = ['y'.repeat(MAX_PARAGRAPH_CHARS)];
  const file = writeHotpot(dir, 'long.json', rows);
  assert.throws(
    () => loadHotpot(file),
    (e: unknown) => e instanceof UserError && /record 0 .* of 100,0\d\d characters/.test(e.message),
  );
  rows[0].context[3][1] = ['y'.repeat(MAX_PARAGRAPH_CHARS - 100)];
  assert.equal(loadHotpot(writeHotpot(dir, 'long-ok.json', rows)).records.length, 2);
});

test('a placement needs two supporting paragraphs in every record', () => {
  const rows = hotpotRows(3);
  rows[1].supporting_facts = [[rows[1].context[0][0], 0]];
  const d = loadHotpot(writeHotpot(dir, 'one-fact.json', rows));
  assert.throws(
    () => checkSupportingFacts(d, '--placement 0-20'),
    /record 1 .* naming 1 of its paragraphs; --placement 0-20 places/,
  );
  assert.doesNotThrow(() => checkSupportingFacts(loadHotpot(data), 'ctx-dist'));
});
