// Two rules of BABILong's construction that only show at the edges: the decoded context is stripped at both ends
// (a cut last sentence can end in a line break), and create_tasks.py never draws the last sample a length keeps
// after max_n_facts (TaskDataset.__len__ is the last kept sample's number).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildContext, SentencePool } from '../../../generators/babilong/build.js';
import { BABILONG_TASK_DEFINITIONS } from '../../../generators/babilong/index.js';
import { parseLengths } from '../../../harness/config/lengths.js';
import { pyStrip } from '../../../harness/protocol/pytext.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { rngFor } from '../../../harness/util/rng.js';

const tokenizer = loadTokenizer();

test('a context cut just after a line break ends without it, and its pieces still give its text', () => {
  const head = 'The whale rose slowly out of the grey water and the men';
  const sentence = `${head}\nwatched it from the deck in silence.`;
  const pool = new SentencePool([[sentence]], tokenizer);
  const ids = pool.tokensOf(0);
  const upToBreak = [...ids].findIndex((_, i) => tokenizer.decode(ids.subarray(0, i + 1)).endsWith('\n')) + 1;
  assert.ok(upToBreak > 0 && upToBreak < ids.length);
  const sample = { facts: ['Mary went to the garden.'], question: 'Where is Mary? ', answer: 'garden', supporting: [0] };
  const fact = tokenizer.encode(' ' + sample.facts[0]).length;
  let endedAtBreak = 0;
  for (let seed = 0; seed < 8; seed++) {
    const built = buildContext(sample, pool, fact + 3 * ids.length + upToBreak, rngFor('t', seed), tokenizer);
    const text = built.context.text();
    assert.equal(text, pyStrip(text), 'stripped at both ends');
    assert.equal(tokenizer.decode(Uint32Array.from([...built.context.pieces()].flatMap((p) => [...p]))), text);
    assert.equal(built.context.tokenCount, [...built.context.pieces()].reduce((n, p) => n + p.length, 0));
    if (text.endsWith(head)) endedAtBreak++;
  }
  assert.ok(endedAtBreak > 0, 'some seed puts the fact before the cut sentence');
});

test('the last sample a length keeps is never drawn, after the samples over max_n_facts are left out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'babilong-keep-'));
  const story = (who: string, facts: number) =>
    [...Array(facts).keys()].map((i) => `${i + 1} ${who} went to the kitchen.`).join('\n') +
    `\n${facts + 1} Where is ${who}? \tkitchen\t${facts}`;
  // 1k keeps samples of at most 87 rows: Dan's 90 facts are left out there, so Cid's is the last 1k keeps.
  const file = join(dir, 'qa1_single-supporting-fact_test.txt');
  writeFileSync(file, [story('Ann', 2), story('Bob', 3), story('Cid', 4), story('Dan', 90)].join('\n') + '\n');
  const qa1 = BABILONG_TASK_DEFINITIONS.find((t) => t.name === 'qa1')!;
  const p = await qa1.prepare({ tokenizer, seed: 1, options: { data: file } });
  const asked = (label: string) => {
    const l = parseLengths(label)[0];
    return [...Array(p.maxSamples(l)).keys()].map((i) => p.build(l, i).question).sort();
  };
  assert.deepEqual(asked('0k'), ['Where is Ann? ', 'Where is Bob? ', 'Where is Cid? ']);
  assert.deepEqual(asked('1k'), ['Where is Ann? ', 'Where is Bob? ']);
});
