// Prompt kinds the reference reader recognises: RULER NIAH (inline and through MemAgent), chunk edges,
// final-answer variants, full-context QA, LongBench QA and summaries, variable tracking, and junk input.

import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { datasetPath, packageRoot } from '../../../harness/paths.js';
import {
  FULL_CONTEXT_BOXED,
  FULL_CONTEXT_PHRASE,
  MEMAGENT_FINAL_BOXED,
  MEMAGENT_FINAL_PHRASE,
  MEMAGENT_UPDATE,
  NO_MEMORY,
  fillTemplate,
} from '../../../harness/methods/templates.js';
import { READER_ID, READER_LABEL } from '../../../reference/reader/index.js';
import { referenceReply } from '../../../reference/builtin-reader.js';
import { parsePrompt } from '../../../reference/reader/prompt.js';
import { buildSample, extractPhrase, loadHotpot, memAgentLoop, rng, subEm } from './fixture.js';

const user = (content: string) => [{ role: 'user' as const, content }];

/** RULER-style essay haystack: whitespace-normalised essays with needle sentences at given depths (0..1). */
function essayHaystack(chars: number, needles: { sentence: string; depth: number }[]): string {
  const dir = datasetPath('essays', 'paul_graham');
  let text = '';
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.txt'))
    .sort()) {
    text += ` ${readFileSync(join(dir, f), 'utf8')}`;
    if (text.length > chars * 1.2) break;
  }
  const sentences = text
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, chars)
    .split(/(?<=[.!?]) (?=[A-Z])/);
  const out = [...sentences];
  for (const n of [...needles].sort((a, b) => b.depth - a.depth))
    out.splice(Math.floor(sentences.length * n.depth), 0, n.sentence);
  return out.join(' ');
}

const needle = (key: string, value: string | number) => `One of the special magic numbers for ${key} is: ${value}.`;
const rulerPrompt = (context: string, key: string) =>
  `Some special magic numbers are hidden within the following text. Make sure to memorize it. I will quiz you about the numbers afterwards.\n${context}\nWhat are all the special magic numbers for ${key} mentioned in the provided text?`;

test('labels say it is not an LLM', () => {
  assert.equal(READER_ID, 'reference-reader-v1');
  assert.match(READER_LABEL, /not an LLM/);
});

test('MemAgent and full-context templates are parsed into their exact parts', () => {
  const question = 'Who is X?';
  const memory = '[T]\n#0 A line.';
  const chunk = '\nment 3:\nTitle\nText with </memory> inside.\n';
  assert.deepEqual(parsePrompt(fillTemplate(MEMAGENT_UPDATE, { question, memory, chunk })), {
    kind: 'update',
    question,
    memory,
    section: chunk,
  });
  assert.deepEqual(parsePrompt(fillTemplate(MEMAGENT_FINAL_PHRASE, { question, memory })), {
    kind: 'final',
    question,
    memory,
    boxed: false,
  });
  assert.deepEqual(parsePrompt(fillTemplate(MEMAGENT_FINAL_BOXED, { question, memory })), {
    kind: 'final',
    question,
    memory,
    boxed: true,
  });
  const context = 'Document 1:\nA\nB.';
  assert.deepEqual(parsePrompt(fillTemplate(FULL_CONTEXT_PHRASE, { context, question })), {
    kind: 'fullContext',
    question,
    context,
    boxed: false,
  });
  assert.deepEqual(parsePrompt(fillTemplate(FULL_CONTEXT_BOXED, { context, question })), {
    kind: 'fullContext',
    question,
    context,
    boxed: true,
  });
});

test('RULER NIAH inline: the queried value, not the distractors', () => {
  const ctx = essayHaystack(60_000, [
    { sentence: needle('fearless-ocean', 4817263), depth: 0.37 },
    { sentence: needle('quiet-lantern', 9120045), depth: 0.6 },
    { sentence: needle('brave-pebble', 3331907), depth: 0.05 },
  ]);
  const out = referenceReply(user(rulerPrompt(ctx, 'fearless-ocean')), 128);
  assert.ok(out.includes('4817263'), out);
  assert.ok(!out.includes('9120045') && !out.includes('3331907'), out);
  assert.ok(out.length < 200, out);
});

test('RULER NIAH singular, multi-value and multi-query forms', () => {
  const single = essayHaystack(30_000, [{ sentence: needle('tidy-harbor', 7000001), depth: 0.9 }]);
  const prompt = `A special magic number is hidden within the following text. Make sure to memorize it. I will quiz you about the number afterwards.\n${single}\nWhat is the special magic number for tidy-harbor mentioned in the provided text?`;
  assert.ok(referenceReply(user(prompt), 128).includes('7000001'));

  const values = [1234567, 2345678, 3456789, 4567890];
  const multi = essayHaystack(
    40_000,
    values.map((v, i) => ({ sentence: needle('odd-meadow', v), depth: 0.1 + i * 0.2 })),
  );
  const outMulti = referenceReply(user(rulerPrompt(multi, 'odd-meadow')), 128);
  for (const v of values) assert.ok(outMulti.includes(String(v)), `${v} missing from ${outMulti}`);

  const keys = ['red-fox', 'blue-owl', 'green-elk', 'gray-yak'];
  const mq = essayHaystack(
    40_000,
    keys.map((k, i) => ({ sentence: needle(k, 5000000 + i), depth: 0.9 - i * 0.2 })),
  );
  const outMq = referenceReply(user(rulerPrompt(mq, 'red-fox, blue-owl, green-elk, and gray-yak')), 128);
  assert.equal(outMq, '5000000, 5000001, 5000002, 5000003');
});

test('RULER NIAH through MemAgent: needle kept in memory across chunks and answered in phrase form', () => {
  const ctx = essayHaystack(150_000, [
    { sentence: needle('silent-river', 8675309), depth: 0.15 },
    { sentence: needle('loud-river', 1111111), depth: 0.5 },
  ]);
  const problem =
    'Some special magic numbers are hidden within the following text. Make sure to memorize it. I will quiz you about the numbers afterwards.\nWhat are all the special magic numbers for silent-river mentioned in the provided text?';
  const r = memAgentLoop(problem, ctx);
  assert.ok(r.calls >= 8);
  assert.ok(r.memory.includes('8675309'), 'needle evicted from memory');
  const pred = extractPhrase(r.raw);
  assert.ok(pred !== null && pred.includes('8675309'), r.raw);
  assert.ok(!pred.includes('1111111'), r.raw);
});

test('a needle cut by a chunk edge is still found (the unfinished tail is carried)', () => {
  const sentence = needle('split-key', 4242424);
  const ctx = essayHaystack(50_000, [{ sentence, depth: 0.5 }]);
  const at = ctx.indexOf(sentence) + 30; // cut inside the needle sentence
  const question = 'What are all the special magic numbers for split-key mentioned in the provided text?';
  let memory = NO_MEMORY;
  for (const chunk of [ctx.slice(0, at), ctx.slice(at)]) {
    memory = referenceReply(user(fillTemplate(MEMAGENT_UPDATE, { question, memory, chunk })), 1024);
  }
  const raw = referenceReply(user(fillTemplate(MEMAGENT_FINAL_PHRASE, { question, memory })), 1024);
  assert.equal(extractPhrase(raw), '4242424');
});

test('a document header or title cut by a chunk edge keeps its provenance', () => {
  const records = loadHotpot();
  const sample = buildSample(records, 5, 40_000, 3);
  const [title, idx] = sample.record.supporting_facts[0];
  const goldSentence = sample.record.context.find(([t]) => t === title)?.[1][idx]?.trim() ?? '';
  const headerAt = sample.context.indexOf(`:\n${title}\n`);
  assert.ok(headerAt > 0 && goldSentence.length > 0);
  const docStart = sample.context.lastIndexOf('Document ', headerAt);
  for (const cut of [docStart + 4, headerAt + 1, headerAt + 2 + Math.floor(title.length / 2)]) {
    let memory = NO_MEMORY;
    for (const chunk of [sample.context.slice(0, cut), sample.context.slice(cut)]) {
      memory = referenceReply(
        user(fillTemplate(MEMAGENT_UPDATE, { question: sample.record.question, memory, chunk })),
        1024,
      );
    }
    const lines = memory.split('\n');
    const titleLine = lines.indexOf(`[${title}]`);
    assert.ok(titleLine >= 0, `title line missing after cut at ${cut - docStart}:\n${memory}`);
    const own = lines.slice(titleLine + 1);
    const end = own.findIndex((l) => l.startsWith('['));
    const block = end < 0 ? own : own.slice(0, end);
    assert.ok(
      block.some((l) => l.startsWith('#') && l.includes(goldSentence.slice(0, 40))),
      `gold sentence not under its title:\n${memory}`,
    );
  }
});

test('boxed final variant and full-context prompts', () => {
  const records = loadHotpot();
  const s = buildSample(records, 7, 30_000, 2);
  const r = memAgentLoop(s.record.question, s.context);
  const boxed = referenceReply(
    user(fillTemplate(MEMAGENT_FINAL_BOXED, { question: s.record.question, memory: r.memory })),
    1024,
  );
  const m = /\\boxed\{([^}]*)\}/.exec(boxed);
  assert.ok(m !== null, boxed);
  assert.equal(m[1], r.prediction);

  const full = referenceReply(
    user(fillTemplate(FULL_CONTEXT_PHRASE, { context: s.context, question: s.record.question })),
    1024,
  );
  assert.match(full, /^Therefore, the answer is .+\.$/);
  assert.equal(subEm(extractPhrase(full), s.record.answer), 1, `${full} vs ${s.record.answer}`);
  const fullBoxed = referenceReply(
    user(fillTemplate(FULL_CONTEXT_BOXED, { context: s.context, question: s.record.question })),
    1024,
  );
  assert.match(fullBoxed, /\\boxed\{.+\}/);
});

test('full-context reading is linear enough for a 1M-token-sized text', () => {
  const records = loadHotpot();
  const s = buildSample(records, 12, 4_000_000, 5);
  const out = referenceReply(
    user(fillTemplate(FULL_CONTEXT_PHRASE, { context: s.context, question: s.record.question })),
    1024,
  );
  assert.match(out, /the answer is/);
});

test('LongBench QA gives a short raw span; summaries are extractive and within budget', () => {
  const records = loadHotpot();
  const r = records[11];
  const passages = r.context.map(([t, ss], i) => `Passage ${i + 1}:\n${t}\n${ss.join('')}`).join('\n');
  const instr =
    'Answer the question based on the given passages. Only give me the answer and do not output any other words.';
  const qa = `${instr}\n\nThe following are given passages.\n${passages}\n\n${instr}\n\nQuestion: ${r.question}\nAnswer:`;
  const ans = referenceReply(user(qa), 32);
  assert.ok(!ans.includes('the answer is'), ans);
  assert.ok(ans.split(/\s+/).length <= 8 && ans.length > 0, ans);
  assert.equal(subEm(ans, r.answer), 1, `${ans} vs ${r.answer}`);

  // A report made of essay text (the summariser is extractive: its sentences must come from the report).
  const ctx = essayHaystack(40_000, []);
  const prompt = `You are given a report by a government agency. Write a one-page summary of the report.\n\nReport:\n${ctx}\n\nNow, write a one-page summary of the report.\n\nSummary:`;
  const summary = referenceReply(user(prompt), 512);
  assert.ok(summary.length > 100 && summary.length <= 512 * 3.5, `summary of ${summary.length} chars`);
  const sentences = summary.split(/(?<=[.!?]) (?=[A-Z])/);
  assert.ok(sentences.length >= 3, summary);
  for (const sentence of sentences) assert.ok(ctx.includes(sentence), `not from the report: ${sentence}`);
});

test('variable tracking follows a chain across chunks', () => {
  const noise = 'The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.';
  const lines: string[] = [];
  const chain = [
    'VAR QWERT = 12345',
    'VAR ASDFG = VAR QWERT ',
    'VAR ZXCVB = VAR ASDFG ',
    'VAR POIUY = VAR ZXCVB ',
    'VAR LKJHG = VAR POIUY ',
  ];
  for (let i = 0; i < 2000; i++) {
    if (i % 400 === 7) lines.push(chain[Math.floor(i / 400)]);
    if (i === 900) lines.push('VAR MNBVC = 99999');
    lines.push(noise);
  }
  const question = 'Question: Find all variables that are assigned the value 12345 in the text above.';
  const r = memAgentLoop(question, lines.join('\n'));
  const pred = extractPhrase(r.raw) ?? '';
  for (const v of ['QWERT', 'ASDFG', 'ZXCVB', 'POIUY', 'LKJHG'])
    assert.ok(pred.includes(v), `${v} missing from ${pred}`);
  assert.ok(!pred.includes('MNBVC'));
});

test('unknown or malformed prompts never throw and stay short', () => {
  const rand = rng(99);
  const junk = Array.from({ length: 2000 }, () => String.fromCharCode(Math.floor(rand() * 0x3000))).join('');
  const cases: { messages: { role: 'user' | 'system' | 'assistant'; content: string }[]; max: number }[] = [
    { messages: [], max: 64 },
    { messages: [{ role: 'system', content: 'You are helpful.' }], max: 64 },
    { messages: user(''), max: 64 },
    { messages: user('Hello there'), max: 64 },
    { messages: user('What is the capital of France?'), max: 16 },
    { messages: user(junk), max: 64 },
    { messages: user('<problem> unclosed <memory> and <section> tags'), max: 64 },
    {
      messages: user(fillTemplate(MEMAGENT_UPDATE, { question: '', memory: '>> {broken json', chunk: '' })),
      max: 1024,
    },
    { messages: user(fillTemplate(MEMAGENT_FINAL_PHRASE, { question: '???', memory: '' })), max: 1 },
    { messages: user('Summary:'), max: 8 },
    { messages: user('Question: \nAnswer:'), max: 8 },
    { messages: user(fillTemplate(FULL_CONTEXT_PHRASE, { context: junk, question: 'Who?' })), max: 0 },
  ];
  for (const c of cases) {
    const out = referenceReply(c.messages, c.max);
    assert.equal(typeof out, 'string');
    assert.ok(out.length <= Math.max(1, c.max) * 3.5 + 1, `reply of ${out.length} chars for max ${c.max}`);
  }
  const final = referenceReply(
    user(fillTemplate(MEMAGENT_FINAL_PHRASE, { question: 'Who wrote it?', memory: NO_MEMORY })),
    1024,
  );
  assert.match(final, /the answer is/);
});

test('the reader is a pure function of the prompt text (no data, generator, random or clock imports)', () => {
  const dir = join(packageRoot(), 'reference', 'reader');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && n !== 'bench.ts')) {
    const src = readFileSync(join(dir, f), 'utf8');
    assert.ok(!/from '[^']*(generators|datasets)\//.test(src), `${f} imports generators/ or datasets/`);
    assert.ok(!/Math\.random|Date\.now|new Date\(/.test(src), `${f} uses randomness or the clock`);
    assert.ok(!/from 'node:(fs|net|http|child_process)'/.test(src), `${f} does I/O`);
  }
});
