import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { ragMethod, selectPassages, PASSAGE_SEPARATOR } from '../../../harness/methods/rag.js';
import { defaultTemplates, fillTemplate, FULL_CONTEXT_PHRASE } from '../../../harness/methods/templates.js';
import { tokenWindows } from '../../../harness/methods/windows.js';
import { piecesContext, textContext } from '../../../harness/context.js';
import { ModelCallError } from '../../../harness/errors.js';
import type { ContextSource, Model, ModelRequest, Sample } from '../../../harness/types.js';

const tokenizer = loadTokenizer('qwen2.5');
const templates = defaultTemplates('phrase');

function recording(inner: Model) {
  const log: ModelRequest[] = [];
  const model: Model = {
    id: inner.id,
    isReferenceReader: inner.isReferenceReader,
    async generate(request, signal) {
      log.push(request);
      return inner.generate(request, signal);
    },
  };
  return { model, log };
}

function sampleOf(context: ContextSource, question: string, answers: string[], prompt?: Sample['prompt']): Sample {
  return {
    id: 't/1/0',
    task: 't',
    taskVersion: '1',
    length: { kind: 'tokens', value: 1, label: '1' },
    index: 0,
    question,
    answers,
    context,
    metric: 'sub_em',
    metadata: {},
    ...(prompt ? { prompt } : {}),
  };
}

const doc = (i: number) =>
  `Document ${i + 1}:\nPlace ${i}\nThe town of Place ${i} lies on a river and has a small market square. ` +
  `Its mayor, Person ${i}, was born there and founded a guild of weavers in ${1800 + (i % 150)}.`;
const before = Array.from({ length: 900 }, (_, i) => doc(i)).join('\n\n');
const after = Array.from({ length: 700 }, (_, i) => doc(900 + i)).join('\n\n');
const needle = 'Marie Vell was born in the city of Dornbach in 1911.';
const haystack = `${before}\n\nDocument 901:\nMarie Vell\n${needle}\n\n${after}`;
const question = 'In which city was Marie Vell born?';

test('rag keeps the passage holding the answer from a long context, in a prompt within maxContext', async () => {
  const context = textContext(haystack, tokenizer);
  const ids = tokenizer.encode(haystack);
  // The needle sentence lies inside one 500-token passage (checked, so the test means what it says).
  const start = tokenizer.count(`${before}\n\nDocument 901:\nMarie Vell\n`);
  const end = start + tokenizer.count(needle);
  const needlePassage = Math.floor(start / 500);
  assert.equal(Math.floor((end - 1) / 500), needlePassage, 'needle straddles a passage boundary; move it');
  assert.ok(ids.length > 50_000, `context is only ${ids.length} tokens`);

  const { model, log } = recording(createLocalModel(tokenizer));
  for (const maxContext of [2_000, 4_096, 8_000]) {
    log.length = 0;
    const method = ragMethod({ maxContext, maxNewTokens: 256, temperature: 0, topP: 1, templates });
    const out = await method.run(sampleOf(context, question, ['Dornbach']), { model, tokenizer });
    assert.equal(out.status, 'ok');
    assert.equal(out.calls, 1);
    assert.equal(log.length, 1);
    const prompt = log[0].messages[0].content;
    const promptTokens = tokenizer.count(prompt);
    assert.ok(promptTokens <= maxContext, `prompt of ${promptTokens} tokens over maxContext ${maxContext}`);
    assert.equal(log[0].promptTokensHint, promptTokens);
    assert.ok(prompt.includes(needle), `maxContext ${maxContext}: needle not in the prompt`);
    const extra = out.extra as { passages_total: number; passages_kept: number; kept_positions: number[] };
    assert.equal(extra.passages_total, Math.ceil(ids.length / 500));
    assert.ok(extra.kept_positions.includes(needlePassage));
    assert.deepEqual(
      [...extra.kept_positions].sort((a, b) => a - b),
      extra.kept_positions,
      'not in document order',
    );
    assert.equal(extra.passages_kept, extra.kept_positions.length);
    // The window is used, not just a few passages: another passage would not have fit.
    assert.ok(promptTokens > maxContext - 500 - 10, `maxContext ${maxContext}: only ${promptTokens} tokens used`);
    assert.ok(extra.passages_kept < extra.passages_total);
    // Passages in the prompt are the decoded windows at kept positions, joined by a blank line.
    const windows = [...tokenWindows(context.pieces(), 500)];
    const joined = extra.kept_positions.map((p) => tokenizer.decode(windows[p])).join(PASSAGE_SEPARATOR);
    assert.equal(prompt, fillTemplate(FULL_CONTEXT_PHRASE, { question, context: joined }));
    assert.equal(out.prediction, 'Dornbach');
  }
});

test('topK caps the passages kept', async () => {
  const { model, log } = recording(createLocalModel(tokenizer));
  const method = ragMethod({ maxContext: 8_000, topK: 2, maxNewTokens: 256, temperature: 0, topP: 1, templates });
  const out = await method.run(sampleOf(textContext(haystack, tokenizer), question, ['Dornbach']), {
    model,
    tokenizer,
  });
  assert.equal((out.extra as { passages_kept: number }).passages_kept, 2);
  assert.ok(log[0].messages[0].content.includes(needle));
  assert.throws(() => ragMethod({ maxContext: 8_000, topK: 0, maxNewTokens: 1, temperature: 0, topP: 1, templates }));
});

test('a context that fits is kept whole, in order; the sample template and answer format are used', async () => {
  const text = Array.from({ length: 40 }, (_, i) => doc(i)).join('\n\n') + `\n\n${needle}`;
  const context = textContext(text, tokenizer);
  const { model, log } = recording(createLocalModel(tokenizer));
  const template = 'Read this.\n{context}\nQ: {question}\nPut the answer in \\boxed{}.';
  const method = ragMethod({
    maxContext: 100_000,
    passageTokens: 200,
    maxNewTokens: 64,
    temperature: 0,
    topP: 1,
    templates,
  });
  const out = await method.run(
    sampleOf(context, question, ['Dornbach'], { fullContext: template, answerFormat: 'raw', maxNewTokens: 77 }),
    { model, tokenizer },
  );
  const extra = out.extra as { passages_total: number; kept_positions: number[] };
  assert.deepEqual(
    extra.kept_positions,
    Array.from({ length: extra.passages_total }, (_, i) => i),
  );
  const prompt = log[0].messages[0].content;
  assert.ok(prompt.startsWith('Read this.\n') && prompt.endsWith(`\nQ: ${question}\nPut the answer in \\boxed{}.`));
  const body = prompt.slice('Read this.\n'.length, prompt.lastIndexOf('\nQ: '));
  assert.equal(body.split(PASSAGE_SEPARATOR).length >= extra.passages_total, true);
  assert.equal(log[0].params.maxTokens, 77);
  // 'raw': the whole continuation is the prediction.
  assert.equal(out.prediction, out.rawOutput);
});

test('the context is streamed: never materialised as one string, pieces of any size', async () => {
  const ids = tokenizer.encode(haystack);
  let reads = 0;
  const context = piecesContext(
    ids.length,
    function* () {
      reads++;
      for (let at = 0; at < ids.length; at += 777) yield ids.subarray(at, at + 777);
    },
    tokenizer,
  );
  context.text = () => {
    throw new Error('rag materialised the context');
  };
  const sel = selectPassages(FULL_CONTEXT_PHRASE, question, context, tokenizer, 3_000, 500);
  assert.ok(sel.texts.some((t) => t.includes(needle)));
  assert.ok(reads <= 3, `context read ${reads} times`);
  assert.equal(sel.total, Math.ceil(ids.length / 500));
});

test('the prompt never exceeds maxContext, down to a window with no room for a passage', () => {
  const context = textContext(haystack, tokenizer);
  const overhead = tokenizer.count(fillTemplate(FULL_CONTEXT_PHRASE, { question, context: '' }));
  for (const maxContext of [
    overhead - 5,
    overhead,
    overhead + 499,
    overhead + 500,
    overhead + 501,
    overhead + 520,
    overhead + 1003,
    overhead + 1004,
    5_555,
  ]) {
    const sel = selectPassages(FULL_CONTEXT_PHRASE, question, context, tokenizer, maxContext, 500);
    const n = tokenizer.count(sel.prompt);
    assert.equal(n, sel.promptTokens);
    if (maxContext >= overhead) assert.ok(n <= maxContext, `maxContext ${maxContext}: ${n} tokens`);
    if (maxContext < overhead + 500) assert.equal(sel.positions.length, 0, `maxContext ${maxContext}`);
    // Edge merges may cost a passage a token or two more inside the prompt; then it is dropped, never squeezed in.
    if (maxContext >= overhead + 520) assert.ok(sel.positions.length >= 1, `maxContext ${maxContext}: nothing kept`);
  }
});

test('a context-length rejection ends the sample as truncated, other failures as error; passage facts are kept', async () => {
  const failing = (kind: 'context-length' | 'permanent'): Model => ({
    id: 'fail',
    isReferenceReader: false,
    async generate() {
      throw new ModelCallError(`refused (${kind})`, kind, 400);
    },
  });
  const method = ragMethod({ maxContext: 3_000, maxNewTokens: 64, temperature: 0, topP: 1, templates });
  const calls: string[] = [];
  for (const [kind, status] of [
    ['context-length', 'truncated'],
    ['permanent', 'error'],
  ] as const) {
    const out = await method.run(sampleOf(textContext(haystack, tokenizer), question, ['Dornbach']), {
      model: failing(kind),
      tokenizer,
      onCall: (c) => calls.push(c.status),
    });
    assert.equal(out.status, status);
    assert.equal(out.prediction, null);
    assert.match(out.error ?? '', /refused/);
    assert.ok((out.extra as { passages_kept: number }).passages_kept > 0);
  }
  assert.deepEqual(calls, ['error', 'error']);
});
