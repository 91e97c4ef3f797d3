// The seam between the reference reader and the families (harness/reader-skill.ts): the reader knows a family's
// prompts only through the skills it is handed; the catalog lists them from Family.readerSkills; the embedded
// model gets the catalog's; and the skills themselves are pure readers of prompt text.

import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../harness/paths.js';
import type { ReaderSkill } from '../../../harness/reader-skill.js';
import { Catalog } from '../../../harness/registry/family.js';
import { fillTemplate, MEMAGENT_FINAL_PHRASE, MEMAGENT_UPDATE, NO_MEMORY } from '../../../harness/methods/templates.js';
import { builtinCatalog } from '../../../generators/index.js';
import { findNeedles, niahKeys, rulerNiahSkill } from '../../../generators/ruler/reader-niah.js';
import { rulerVtSkill, vtValue } from '../../../generators/ruler/reader-vt.js';
import { longbenchReaderSkill, readLongBenchPrompt } from '../../../generators/longbench/reader-skill.js';
import { createReferenceReader } from '../../../reference/reader/index.js';
import { keyOf } from '../../../reference/reader/text.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { createEmbeddedModel } from '../../../cli/worker-setup.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';

const user = (content: string) => [{ role: 'user' as const, content }];
const filler = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => `The ${seed} report number ${i} describes a quiet afternoon by the river.`);

/** A RULER multi-query prompt: four needles among filler sentences, all four keys asked. */
function multiQueryPrompt(): string {
  const lines = filler(200, 'weather');
  ['red-fox', 'blue-owl', 'green-elk', 'gray-yak'].forEach((k, i) =>
    lines.splice(20 + i * 40, 0, `One of the special magic numbers for ${k} is: ${5000000 + i}.`),
  );
  return `Some special magic numbers are hidden within the following text.\n${lines.join(' ')}\nWhat are all the special magic numbers for red-fox, blue-owl, green-elk, and gray-yak mentioned in the provided text?`;
}

test('the catalog lists the families’ reader skills in family order, and refuses a duplicate name', () => {
  assert.deepEqual(builtinCatalog().readerSkills.names(), [
    'ruler-niah',
    'ruler-vt',
    'ruler-count',
    'ruler-qa',
    'longbench',
    'longbench-v2',
    'babilong',
  ]);
  const skill: ReaderSkill = { name: 'dup' };
  assert.throws(
    () =>
      new Catalog([
        { name: 'a', tasks: [], readerSkills: [skill] },
        { name: 'b', tasks: [], readerSkills: [skill] },
      ]),
    /reader skill 'dup' is registered twice/,
  );
});

test('the reader knows RULER’s needles only through the RULER skills it is handed', () => {
  const prompt = multiQueryPrompt();
  const knowing = createReferenceReader([rulerNiahSkill, rulerVtSkill]);
  const bare = createReferenceReader([]);
  assert.equal(knowing(user(prompt), 128), '5000000, 5000001, 5000002, 5000003');
  assert.notEqual(bare(user(prompt), 128), '5000000, 5000001, 5000002, 5000003');
  // LongBench's own kinds likewise: passage count is answered by its skill, otherwise read as an unknown prompt.
  const count = `Find how many unique paragraphs there are.\n\nParagraph 1: A.\nParagraph 2: B.\nParagraph 3: A.`;
  assert.equal(createReferenceReader([longbenchReaderSkill])(user(count), 16), '2');
  assert.notEqual(bare(user(count), 16), '2');
});

test('a family’s skill plugs in without touching the reader: prompt, answer rule and kept facts', () => {
  // A made-up family whose facts read "The vault code of {key} is {value}." and whose question asks for one key.
  const CODE = /The vault code of (\S+) is (\d+)\./g;
  const ask = /^Which vault code belongs to (\S+)\?$/;
  const vault: ReaderSkill = {
    name: 'vault',
    readPrompt: (prompt) => {
      const at = prompt.lastIndexOf('\nWhich vault code');
      return at < 0 ? null : { kind: 'question', question: prompt.slice(at + 1), context: prompt.slice(0, at) };
    },
    question: (question) => {
      const key = ask.exec(question)?.[1];
      if (key === undefined) return null;
      const find = (text: string) => [...text.matchAll(CODE)].find((m) => m[1] === key)?.[2] ?? null;
      return {
        answerFromText: find,
        answerFromMemory: find,
        keep: { keys: [key], isFact: (lower) => lower.includes('vault code') },
      };
    },
  };
  const read = createReferenceReader([vault]);
  const lines = filler(400, 'harbour');
  lines.splice(50, 0, 'The vault code of amber-gate is 4411.');
  lines.splice(300, 0, 'The vault code of stone-gate is 9090.');
  const text = lines.join(' ');
  assert.equal(read(user(`${text}\nWhich vault code belongs to stone-gate?`), 64), '9090');
  // Through MemAgent: the kept fact survives every memory update, and the final answer comes from the rule.
  const question = 'Which vault code belongs to amber-gate?';
  let memory = NO_MEMORY;
  for (let i = 0; i < text.length; i += 4000)
    memory = read(user(fillTemplate(MEMAGENT_UPDATE, { question, memory, chunk: text.slice(i, i + 4000) })), 256);
  assert.ok(memory.includes('The vault code of amber-gate is 4411.'), memory);
  assert.equal(
    read(user(fillTemplate(MEMAGENT_FINAL_PHRASE, { question, memory })), 256),
    'Therefore, the answer is 4411.',
  );
});

test('RULER’s skill parts: keys in query order, needles in text order, the vt value', () => {
  assert.deepEqual(
    niahKeys('What are all the special magic numbers for a-b, c-d, and e-f mentioned in the provided text?'),
    ['a-b', 'c-d', 'e-f'],
  );
  assert.deepEqual(niahKeys('What is the capital of France?'), []);
  assert.deepEqual(
    findNeedles('One of the special magic uuids for x is: 1-2. Then one of the special magic uuids for y is: 3.'),
    [
      { key: 'x', value: '1-2' },
      { key: 'y', value: '3' },
    ],
  );
  assert.equal(
    vtValue('Not the variables that are assigned the value 12; find all variables that are assigned the value 345.'),
    '345',
  );
  assert.equal(vtValue('Who wrote it?'), null);
});

test('LongBench’s skill reads its prompt kinds and leaves plain QA to the reader', () => {
  const tools = { wordKey: keyOf };
  const retrieval = `Paragraph 1: Cats purr softly.\nParagraph 2: Rockets reach orbit quickly.\n\nThe following is an abstract.\n\nA rocket reached orbit.\n\nPlease enter the number of the paragraph that the abstract is from.\n\nThe answer is: `;
  assert.deepEqual(readLongBenchPrompt(retrieval, tools), { kind: 'answer', text: 'Paragraph 2' });
  assert.deepEqual(readLongBenchPrompt('def f():\n    return 1\nNext line of code:\n', tools), {
    kind: 'answer',
    text: '    return 1',
  });
  assert.deepEqual(readLongBenchPrompt('Report:\nThe text.\n\nNow, write a summary.\n\nSummary:', tools), {
    kind: 'summary',
    query: null,
    context: 'The text.',
  });
  assert.deepEqual(
    readLongBenchPrompt('Transcript:\nWords.\n\nNow, answer.\n\nQuery: What did they say?\nAnswer:', tools),
    {
      kind: 'summary',
      query: 'What did they say?',
      context: 'Words.',
    },
  );
  assert.equal(readLongBenchPrompt('Passages.\n\nQuestion: Who?\nAnswer:', tools), null);
});

test('the embedded model gets the catalog’s skills; createLocalModel defaults to the built-in ones', async () => {
  const tokenizer = loadTokenizer('qwen2.5');
  const request = { messages: user(multiQueryPrompt()), params: { maxTokens: 128, temperature: 0, topP: 1 } };
  const want = '5000000, 5000001, 5000002, 5000003';
  assert.equal((await createEmbeddedModel(tokenizer).generate(request)).text, want);
  assert.equal((await createLocalModel(tokenizer).generate(request)).text, want);
  assert.notEqual((await createLocalModel(tokenizer, { readerSkills: [] }).generate(request)).text, want);
});

test('reader skills are pure readers of prompt text (no data, I/O, randomness or clock)', () => {
  const root = join(packageRoot(), 'generators');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /(^|\/)reader-[^/]*\.ts$/.test(f),
  );
  assert.ok(files.length >= 3, files.join(', '));
  for (const f of files) {
    const src = readFileSync(join(root, f), 'utf8');
    for (const m of src.matchAll(/from '([^']+)'/g))
      assert.match(m[1], /^\.\.\/\.\.\/harness\/reader-skill\.js$|^\.\//, `${f}: ${m[1]}`);
    assert.ok(
      !/Math\.random|Date\.now|new Date\(|process\./.test(src),
      `${f} uses randomness, the clock or the process`,
    );
  }
});
