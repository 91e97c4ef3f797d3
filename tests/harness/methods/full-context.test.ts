// Full-context middle truncation per protocol (docs/PROTOCOLS.md §a.9, §e.6, D9) and the question as each
// protocol fills it. References are written out from the upstream code:
//   MemAgent utils/openai_api.py: input_ids = input_ids[:max_len//2] + input_ids[-max_len//2:]; decode(input_ids)
//   LongBench pred.py:           half = int(max_length/2); decode(tok[:half]) + decode(tok[-half:])
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { textContext } from '../../../harness/context.js';
import {
  fullContextMethod,
  middleTruncatedPrompt,
  oneShotQuestion,
  truncationHalves,
} from '../../../harness/methods/full-context.js';
import { defaultTemplates, fillTemplate, FULL_CONTEXT_PHRASE } from '../../../harness/methods/templates.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { Model, ModelRequest, Sample } from '../../../harness/types.js';

const tokenizer = loadTokenizer('qwen2.5');

/** Python's a // b (floor division), for the reference slices. */
const floorDiv = (a: number, b: number) => Math.floor(a / b);

function concat(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** openai_api.py's truncation of an encoded prompt, written from its source. */
function memagentReference(ids: Uint32Array, max: number): string {
  // input_ids[:max_len//2] + input_ids[-max_len//2:]; -max_len//2 is floor(-max/2).
  const head = ids.subarray(0, floorDiv(max, 2));
  const tail = ids.subarray(ids.length + floorDiv(-max, 2));
  return tokenizer.decode(concat(head, tail));
}

/** pred.py's truncation, written from its source. */
function longbenchReference(ids: Uint32Array, max: number): string {
  const half = Math.trunc(max / 2);
  return tokenizer.decode(ids.subarray(0, half)) + tokenizer.decode(ids.subarray(ids.length - half));
}

const TEMPLATE = 'Read this.\n\n{context}\n\nQuestion: {question}\nAnswer:';
// Multi-byte text (accents, CJK, emoji) so that cuts can fall inside characters.
const paragraph = (i: number) =>
  `Paragraph ${i}: the café in 東京 serves crème brûlée 🍮 at ${1000 + i} yen; ñandú ${i}.`;

for (const [label, paragraphs] of [
  ['far path (context much longer than the window)', 400],
  ['near path (within the encoding margin)', 0],
] as const) {
  test(`odd --max-context, ${label}: MemAgent keeps max ids (tail one longer), LongBench keeps max-1`, () => {
    const question = 'Which café serves the crème brûlée?';
    let text = Array.from({ length: paragraphs }, (_, i) => paragraph(i)).join('\n');
    let max = 2001;
    if (paragraphs === 0) {
      // A context just over an odd window: the whole prompt is encoded once.
      text = Array.from({ length: 60 }, (_, i) => paragraph(i)).join('\n');
      const whole = tokenizer.count(fillTemplate(TEMPLATE, { question, context: text }));
      max = whole - 21 + ((whole - 21) % 2 === 0 ? 1 : 0);
    }
    assert.equal(max % 2, 1);
    const ids = tokenizer.encode(fillTemplate(TEMPLATE, { question, context: text }));
    assert.ok(ids.length > max);

    const m = middleTruncatedPrompt(TEMPLATE, question, textContext(text, tokenizer), tokenizer, max, 'joined');
    assert.equal(m.truncated, true);
    assert.equal(m.prompt, memagentReference(ids, max));
    assert.equal(m.promptTokens, max);
    assert.deepEqual(truncationHalves(max, 'joined'), { head: (max - 1) / 2, tail: (max + 1) / 2 });

    const l = middleTruncatedPrompt(TEMPLATE, question, textContext(text, tokenizer), tokenizer, max, 'halves');
    assert.equal(l.truncated, true);
    assert.equal(l.prompt, longbenchReference(ids, max));
    assert.equal(l.promptTokens, max - 1);
    assert.deepEqual(truncationHalves(max, 'halves'), { head: (max - 1) / 2, tail: (max - 1) / 2 });

    // The default is MemAgent's rule; the two rules differ in the tail's first id.
    assert.equal(
      middleTruncatedPrompt(TEMPLATE, question, textContext(text, tokenizer), tokenizer, max).prompt,
      m.prompt,
    );
    assert.notEqual(m.prompt, l.prompt);
  });
}

test('an even --max-context keeps max/2 ids at each end under both rules', () => {
  const text = Array.from({ length: 300 }, (_, i) => paragraph(i)).join('\n');
  const ids = tokenizer.encode(fillTemplate(TEMPLATE, { question: 'q?', context: text }));
  const m = middleTruncatedPrompt(TEMPLATE, 'q?', textContext(text, tokenizer), tokenizer, 3000, 'joined');
  const l = middleTruncatedPrompt(TEMPLATE, 'q?', textContext(text, tokenizer), tokenizer, 3000, 'halves');
  assert.equal(m.prompt, memagentReference(ids, 3000));
  assert.equal(l.prompt, longbenchReference(ids, 3000));
  assert.equal(m.promptTokens, 3000);
  assert.equal(l.promptTokens, 3000);
});

/** A model that answers "x" and keeps every request. */
function recorder(): { model: Model; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const model: Model = {
    id: 'rec',
    isReferenceReader: false,
    async generate(request) {
      seen.push(request);
      return {
        text: 'x',
        usage: { promptTokens: 1, completionTokens: 1 },
        latencyMs: 0,
        finishReason: 'stop',
        cached: false,
        retries: 0,
      };
    },
  };
  return { model, seen };
}

function sample(question: string, prompt: Sample['prompt']): Sample {
  return {
    id: 't/1/0',
    task: 't',
    taskVersion: '1',
    length: { kind: 'native', value: 0, label: 'all' },
    index: 0,
    question,
    answers: ['x'],
    context: textContext('Some context.', tokenizer),
    metric: 'qa_f1',
    metadata: {},
    ...(prompt ? { prompt } : {}),
  };
}

test("the one-shot question: stripped by default (MemAgent's baselines), raw when the task says so (LongBench)", async () => {
  const question = '  Who wrote it?\n';
  assert.equal(oneShotQuestion(sample(question, undefined)), 'Who wrote it?');
  assert.equal(oneShotQuestion(sample(question, { questionFill: 'raw' })), question);

  const { model, seen } = recorder();
  const method = fullContextMethod({ maxContext: 120000, maxNewTokens: 16, templates: defaultTemplates('phrase') });
  await method.run(sample(question, undefined), { model, tokenizer });
  await method.run(sample(question, { fullContext: 'C: {context}\nQ: {question}\nA:', questionFill: 'raw' }), {
    model,
    tokenizer,
  });
  assert.equal(
    seen[0].messages[0].content,
    fillTemplate(FULL_CONTEXT_PHRASE, { context: 'Some context.', question: 'Who wrote it?' }),
  );
  assert.equal(seen[1].messages[0].content, `C: Some context.\nQ: ${question}\nA:`);
});
