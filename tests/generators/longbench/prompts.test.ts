import { test } from 'vitest';
import { asRun } from '../../helpers/identity.js';
import assert from 'node:assert/strict';
import { textContext } from '../../../harness/context.js';
import { fullContextMethod, middleTruncatedPrompt } from '../../../harness/methods/full-context.js';
import { memAgentMethod } from '../../../harness/methods/memagent.js';
import { defaultTemplates, fillTemplate } from '../../../harness/methods/templates.js';
import type { Model } from '../../../harness/types.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { longbenchTasks } from '../../../generators/longbench/index.js';
import { createHash } from 'node:crypto';
import {
  fullContextTemplate,
  instructionOf,
  isLongBenchDataset,
  LONGBENCH_DATASETS,
  type LongBenchDataset,
  maxNewTokens,
  UPSTREAM_PROMPTS,
} from '../../../generators/longbench/prompts.js';
import { jsonl, row, tempDir } from './helpers.js';

const tokenizer = loadTokenizer('qwen2.5');

// docs/PROTOCOLS.md §e.1: max new tokens per dataset.
const EXPECTED_MAXLEN: Record<string, number> = {
  narrativeqa: 128,
  qasper: 128,
  multifieldqa_en: 64,
  hotpotqa: 32,
  '2wikimqa': 32,
  musique: 32,
  gov_report: 512,
  qmsum: 512,
  multi_news: 512,
  multifieldqa_zh: 64,
  dureader: 128,
  vcsum: 512,
  trec: 64,
  triviaqa: 32,
  samsum: 128,
  lsht: 64,
  passage_count: 32,
  passage_retrieval_en: 32,
  passage_retrieval_zh: 32,
  lcc: 64,
  'repobench-p': 64,
};
// sha256 (first 16 hex digits) of each dataset2prompt.json value at THUDM/LongBench@2e00731.
const UPSTREAM_SHA256: Record<string, string> = {
  narrativeqa: 'aada7ed24b06abac',
  qasper: '0fbdd123fe7f83d6',
  multifieldqa_en: '20b4666a2de8a1f7',
  multifieldqa_zh: '344b3a4e557cd547',
  hotpotqa: '9ec4ae308865bd0c',
  '2wikimqa': '9ec4ae308865bd0c',
  musique: '9ec4ae308865bd0c',
  dureader: 'ae53329f51b17908',
  gov_report: '91c25d585b189ced',
  qmsum: 'dca23b678fe0183b',
  multi_news: '2af3f28c40b902e6',
  vcsum: '3e5d8241bc9b512e',
  trec: '0eff8bebdba99d91',
  triviaqa: '00a802e6377e72fc',
  samsum: 'a68d884234907eef',
  lsht: 'f3edabdf7fae53d6',
  passage_count: '986550b6c61009c6',
  passage_retrieval_en: '39b96b7fa52bdd2a',
  passage_retrieval_zh: 'c1e2346e245eb365',
  lcc: '6a1f24cf0bb83cd9',
  'repobench-p': 'ee9ec182ea5ffeb7',
};
// Context headers and final cues of docs/PROTOCOLS.md §e.6.
const EXPECTED_SHAPE: Record<string, [header: string, cue: string]> = {
  narrativeqa: ['Story: {context}', '\n\nQuestion: {question}\n\nAnswer:'],
  qasper: ['Article: {context}', '\n\nQuestion: {question}\n\nAnswer:'],
  multifieldqa_en: ['briefly.\n\n{context}', '\n\nQuestion: {question}\nAnswer:'],
  hotpotqa: ['The following are given passages.\n{context}', '\n\nQuestion: {question}\nAnswer:'],
  '2wikimqa': ['The following are given passages.\n{context}', '\n\nQuestion: {question}\nAnswer:'],
  musique: ['The following are given passages.\n{context}', '\n\nQuestion: {question}\nAnswer:'],
  gov_report: ['Report:\n{context}', 'report.\n\nSummary:'],
  qmsum: ['Transcript:\n{context}', '\n\nQuery: {question}\nAnswer:'],
  multi_news: ['News:\n{context}', 'news.\n\nSummary:'],
};

const count = (s: string, sub: string) => s.split(sub).length - 1;

test("all 21 datasets: the prompt is dataset2prompt.json's byte for byte, the limit dataset2maxlen.json's", () => {
  assert.equal(LONGBENCH_DATASETS.length, 21);
  for (const d of LONGBENCH_DATASETS) {
    const sha = createHash('sha256').update(UPSTREAM_PROMPTS[d], 'utf8').digest('hex').slice(0, 16);
    assert.equal(sha, UPSTREAM_SHA256[d], d);
    assert.equal(maxNewTokens(d), EXPECTED_MAXLEN[d], d);
    assert.equal(fullContextTemplate(d).replace('{question}', '{input}'), UPSTREAM_PROMPTS[d], d);
  }
  assert.equal(instructionOf('lcc'), 'Please complete the code given below.');
  assert.equal(instructionOf('vcsum'), '下面有一段会议记录，请你阅读后，写一段总结，总结会议的内容。\n会议记录：');
});

test('every dataset has its own LongBench template shape and max length; the three multi-hop sets share one', () => {
  for (const d of Object.keys(EXPECTED_SHAPE)) {
    const t = fullContextTemplate(d);
    const [header, cue] = EXPECTED_SHAPE[d];
    assert.ok(isLongBenchDataset(d));
    assert.ok(t.includes(header), `${d}: lacks header ${JSON.stringify(header)}`);
    assert.ok(t.endsWith(cue), `${d}: does not end with ${JSON.stringify(cue)}`);
    assert.equal(count(t, '{context}'), 1, d);
    assert.equal(count(t, '{input}'), 0, d);
    assert.equal(count(t, '{question}'), d === 'gov_report' || d === 'multi_news' ? 0 : 1, d);
    assert.equal(t.replace('{question}', '{input}'), UPSTREAM_PROMPTS[d as LongBenchDataset], d);
  }
  const distinct = new Set(LONGBENCH_DATASETS.map((d) => fullContextTemplate(d)));
  assert.equal(distinct.size, LONGBENCH_DATASETS.length - 2);
  assert.equal(fullContextTemplate('hotpotqa'), fullContextTemplate('musique'));
  assert.equal(count(fullContextTemplate('narrativeqa'), 'asconcisely'), 2, 'upstream typo kept');
  assert.ok(
    fullContextTemplate('qasper').includes('\n\n Answer the question based on the above article'),
    'upstream leading space kept',
  );
  assert.ok(
    fullContextTemplate('multi_news').includes('summary of all news. \n\nNews:'),
    'upstream trailing space kept',
  );
  assert.throws(() => fullContextTemplate('nope'), /no LongBench prompt/);
});

test('summaries without a question get the template instruction as problem statement', () => {
  assert.equal(
    instructionOf('gov_report'),
    'You are given a report by a government agency. Write a one-page summary of the report.',
  );
  assert.equal(
    instructionOf('multi_news'),
    'You are given several news passages. Write a one-page summary of all news.',
  );
});

test('context with $& or {question} is inserted verbatim; the question is not substituted inside it', () => {
  const context = 'Passage 1:\nCosts $& more $1 than {question} and {context} and $$.';
  const question = 'What costs $& more? {context}';
  const filled = fillTemplate(fullContextTemplate('hotpotqa'), { context, question });
  const [before, after] = UPSTREAM_PROMPTS.hotpotqa.split('{context}');
  assert.equal(filled, before + context + after.split('{input}').join(question));
});

test("each task's samples carry their dataset's template and limit, and the full-context prompt equals LongBench's", async () => {
  const files: Record<string, string> = {};
  for (const d of LONGBENCH_DATASETS)
    files[`${d}.jsonl`] = jsonl([
      row(
        d,
        0,
        d === 'gov_report' || d === 'multi_news' ? { input: '' } : { context: 'Notes: it costs $& and {question}.' },
      ),
    ]);
  const dir = tempDir(files);
  for (const task of longbenchTasks.filter((t) => !t.name.endsWith('_e'))) {
    const d = task.name.slice('longbench/'.length);
    const prepared = await task.prepare({ tokenizer, seed: 42, options: { data: dir } });
    const s = prepared.build({ kind: 'native', value: 0, label: 'all' }, 0);
    assert.equal(s.prompt?.fullContext, fullContextTemplate(d));
    assert.equal(s.prompt?.maxNewTokens, EXPECTED_MAXLEN[d]);
    assert.equal(s.prompt?.answerFormat, 'raw');
    const r = row(d, 0);
    assert.equal(s.question, d === 'gov_report' || d === 'multi_news' ? instructionOf(d) : r.input);
    const built = middleTruncatedPrompt(s.prompt!.fullContext!, s.question, s.context, tokenizer, 120000);
    const [before, after] = UPSTREAM_PROMPTS[d as keyof typeof UPSTREAM_PROMPTS].split('{context}');
    const input = d === 'gov_report' || d === 'multi_news' ? '' : r.input;
    assert.equal(built.prompt, before + s.context.text() + after.split('{input}').join(input), d);
    assert.equal(built.truncated, false);
  }
});

test('a long context is middle-truncated inside the dataset template (head instruction and tail question survive)', () => {
  const context = textContext(
    Array.from({ length: 3000 }, (_, i) => `Passage ${i + 1}:\nTitle ${i}\nSentence number ${i} of the haystack.`).join(
      '\n',
    ),
    tokenizer,
  );
  const template = fullContextTemplate('hotpotqa');
  const built = middleTruncatedPrompt(template, 'Which sentence is last?', context, tokenizer, 2000);
  assert.equal(built.truncated, true);
  assert.ok(built.prompt.startsWith('Answer the question based on the given passages.'));
  assert.ok(built.prompt.endsWith('\n\nQuestion: Which sentence is last?\nAnswer:'));
  assert.ok(tokenizer.count(built.prompt) <= 2000 + 4);
});

test('pred.py formats the raw fields: a question with surrounding whitespace reaches the prompt untrimmed', async () => {
  // prompt_format.format(**json_obj): neither input nor context is stripped (2 of the 50 bundled fixture rows have such
  // a question). MemAgent's own prompts still strip it (recurrent.py: item['input'].strip()).
  const input = ' When was the room moved? \n';
  const dir = tempDir({ 'hotpotqa.jsonl': jsonl([row('hotpotqa', 0, { input })]) });
  const task = longbenchTasks.find((t) => t.name === 'longbench/hotpotqa')!;
  const all = { kind: 'native', value: 0, label: 'all' } as const;
  const s = asRun(task, (await task.prepare({ tokenizer, seed: 42, options: { data: dir } })).build(all, 0), all, 0);
  assert.equal(s.question, input);
  assert.equal(s.prompt?.questionFill, 'raw');
  assert.equal(s.prompt?.truncation, 'halves');
  const seen: string[] = [];
  const model: Model = {
    id: 'rec',
    isReferenceReader: false,
    async generate(request) {
      seen.push(request.messages[0].content);
      return {
        text: 'Therefore, the answer is room 100',
        usage: { promptTokens: 1, completionTokens: 1 },
        latencyMs: 0,
        finishReason: 'stop',
        cached: false,
        retries: 0,
      };
    },
  };
  await fullContextMethod({ maxContext: 120000, maxNewTokens: 32, templates: defaultTemplates('phrase') }).run(s, {
    model,
    tokenizer,
  });
  const [before, after] = UPSTREAM_PROMPTS.hotpotqa.split('{context}');
  assert.equal(seen[0], before + s.context.text() + after.split('{input}').join(input));
  await memAgentMethod({ chunkTokens: 5000, memoryTokens: 64, templates: defaultTemplates('phrase') }).run(s, {
    model,
    tokenizer,
  });
  assert.ok(
    seen.slice(1).every((p) => p.includes('<problem> \nWhen was the room moved?\n</problem>')),
    'MemAgent strips the question',
  );
});

test("LongBench samples truncate by pred.py's rule: an odd window keeps int(max/2) ids at each end", async () => {
  const context = Array.from(
    { length: 400 },
    (_, i) => `Passage ${i + 1}:\nTitle ${i}\nSentence number ${i} of the haystack.`,
  ).join('\n');
  const dir = tempDir({ 'hotpotqa.jsonl': jsonl([row('hotpotqa', 0, { context })]) });
  const task = longbenchTasks.find((t) => t.name === 'longbench/hotpotqa')!;
  const s = (await task.prepare({ tokenizer, seed: 42, options: { data: dir } })).build(
    { kind: 'native', value: 0, label: 'all' },
    0,
  );
  const max = 1501;
  const ids = tokenizer.encode(fillTemplate(s.prompt!.fullContext!, { context, question: s.question }));
  const half = Math.trunc(max / 2);
  const built = middleTruncatedPrompt(
    s.prompt!.fullContext!,
    s.question,
    s.context,
    tokenizer,
    max,
    s.prompt!.truncation,
  );
  assert.equal(
    built.prompt,
    tokenizer.decode(ids.subarray(0, half)) + tokenizer.decode(ids.subarray(ids.length - half)),
  );
  assert.equal(built.promptTokens, max - 1);
});
