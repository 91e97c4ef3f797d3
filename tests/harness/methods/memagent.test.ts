import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { memAgentMethod } from '../../../harness/methods/memagent.js';
import { defaultTemplates, NO_MEMORY } from '../../../harness/methods/templates.js';
import { tokenWindows, skipWindows } from '../../../harness/methods/windows.js';
import { textContext } from '../../../harness/context.js';
import { ModelCallError } from '../../../harness/errors.js';
import type { MethodCheckpoint, Model, ModelRequest, Sample } from '../../../harness/types.js';
import { modelFromReply } from '../../../reference/serve/reply-model.js';

const tokenizer = loadTokenizer('qwen2.5');

/** The real embedded model, with every request and reply kept for inspection. */
function recording(inner: Model) {
  const log: Array<{ request: ModelRequest; text: string }> = [];
  const model: Model = {
    id: inner.id,
    isReferenceReader: true,
    async generate(request, signal) {
      const res = await inner.generate(request, signal);
      log.push({ request, text: res.text });
      return res;
    },
  };
  return { model, log };
}

function sampleOf(text: string, question: string, answers: string[]): Sample {
  return {
    id: 't/1/0',
    task: 't',
    taskVersion: '1',
    length: { kind: 'tokens', value: 1, label: '1' },
    index: 0,
    question,
    answers,
    context: textContext(text, tokenizer),
    metric: 'sub_em',
    metadata: {},
  };
}

const filler = Array.from(
  { length: 400 },
  (_, i) => `Document ${i + 1}:\nPlace ${i}\nThe town of Place ${i} lies on a river and has a small market square.`,
).join('\n\n');
const haystack = `${filler}\n\nDocument 401:\nMarie Vell\nMarie Vell was born in the city of Dornbach in 1911.\n\n${filler}`;

test('calls = chunks + 1, memory carried forward verbatim, chunk text decoded from 5000-token windows', async () => {
  const { model, log } = recording(createLocalModel(tokenizer));
  const sample = sampleOf(haystack, 'In which city was Marie Vell born?', ['Dornbach']);
  const method = memAgentMethod({
    chunkTokens: 5000,
    memoryTokens: 1024,
    temperature: 0.7,
    topP: 0.95,
    templates: defaultTemplates('phrase'),
  });
  const out = await method.run(sample, { model, tokenizer });
  const chunks = Math.ceil(sample.context.tokenCount / 5000);
  assert.ok(chunks >= 3, `only ${chunks} chunks`);
  assert.equal(out.calls, chunks + 1);
  assert.equal(log.length, chunks + 1);
  assert.ok(log[0].request.messages[0].content.includes(`<memory>\n${NO_MEMORY}\n</memory>`));
  for (let i = 1; i < log.length; i++) {
    assert.ok(
      log[i].request.messages[0].content.includes(`<memory>\n${log[i - 1].text}\n</memory>`),
      `call ${i} lacks the previous memory`,
    );
  }
  // The sections, joined, are the whole context; each is one decoded window.
  const sections = log
    .slice(0, -1)
    .map((c) => /<section>\n([\s\S]*)\n<\/section>\n\nUpdated memory:\n$/.exec(c.request.messages[0].content)![1]);
  assert.equal(sections.join(''), haystack);
  assert.equal(tokenizer.count(sections[0]), 5000);
  assert.ok(log.at(-1)!.request.messages[0].content.includes('Therefore, the answer is'));
  assert.ok(log.every((c) => c.request.messages.length === 1 && c.request.messages[0].role === 'user'));
  assert.ok(
    log.every(
      (c) =>
        c.request.params.maxTokens === 1024 && c.request.params.temperature === 0.7 && c.request.params.topP === 0.95,
    ),
  );
  assert.equal(out.status, 'ok');
  assert.equal(out.prediction, 'Dornbach');
});

test('a resumed sample continues at its checkpoint and makes only the remaining calls', async () => {
  const { model, log } = recording(createLocalModel(tokenizer));
  const sample = sampleOf(haystack, 'In which city was Marie Vell born?', ['Dornbach']);
  const method = memAgentMethod({
    chunkTokens: 5000,
    memoryTokens: 1024,
    temperature: 0.7,
    topP: 0.95,
    templates: defaultTemplates('phrase'),
  });
  const checkpoints: MethodCheckpoint[] = [];
  const full = await method.run(sample, { model, tokenizer, onCheckpoint: (cp) => checkpoints.push(cp) });
  const total = log.length;
  log.length = 0;
  const resumed = await method.run(sample, {
    model,
    tokenizer,
    resume: { ...checkpoints[1], usage: { promptTokens: 0, completionTokens: 0 } },
  });
  assert.equal(log.length, total - 2);
  assert.equal(resumed.calls, full.calls);
  assert.equal(resumed.prediction, full.prediction);
});

test('a context-length rejection ends the sample as truncated; other failures as error', async () => {
  const sample = sampleOf(haystack, 'In which city was Marie Vell born?', ['Dornbach']);
  const method = memAgentMethod({
    chunkTokens: 5000,
    memoryTokens: 1024,
    temperature: 0.7,
    topP: 0.95,
    templates: defaultTemplates('phrase'),
  });
  const failing = (kind: 'context-length' | 'permanent'): Model => ({
    id: 'x',
    isReferenceReader: false,
    async generate() {
      throw new ModelCallError('nope', kind, 400);
    },
  });
  assert.equal((await method.run(sample, { model: failing('context-length'), tokenizer })).status, 'truncated');
  const err = await method.run(sample, { model: failing('permanent'), tokenizer });
  assert.equal(err.status, 'error');
  assert.equal(err.prediction, null);
});

test('windows: consecutive, no overlap, last one shorter; skipping resumes at the same place', () => {
  const pieces = [Uint32Array.from([1, 2, 3]), Uint32Array.from([4]), Uint32Array.from([5, 6, 7, 8, 9])];
  assert.deepEqual(
    [...tokenWindows(pieces, 4)].map((w) => [...w]),
    [[1, 2, 3, 4], [5, 6, 7, 8], [9]],
  );
  assert.deepEqual(
    [...skipWindows(pieces, 4, 1)].map((w) => [...w]),
    [[5, 6, 7, 8], [9]],
  );
  assert.deepEqual([...skipWindows(pieces, 4, 3)], []);
});

test('memory is the reply after the LAST </think>, stripped as upstream extract_solution; a reply without one is kept verbatim', async () => {
  // Upstream (taskutils/memory_eval/utils/recurrent.py): memory, _ = extract_solution(reply), i.e.
  // reply.split('</think>')[-1].strip() when the reply has a </think>, else the reply unchanged.
  const prompts: string[] = [];
  const replies = [
    '<think>plan</think>not the memory</think>\n\n  memory one: Dornbach  \n',
    '  memory two, no think block \n',
  ];
  const model = modelFromReply(
    (messages) => {
      const content = messages[0].content;
      prompts.push(content);
      const update = content.includes('<section>');
      return update
        ? replies[Math.min(prompts.length - 1, replies.length - 1)]
        : '<think>x</think> Therefore, the answer is Dornbach.';
    },
    { id: 'thinking' },
  );
  const sample = sampleOf(haystack, 'In which city was Marie Vell born?', ['Dornbach']);
  const method = memAgentMethod({
    chunkTokens: 5000,
    memoryTokens: 1024,
    temperature: 0.7,
    topP: 0.95,
    templates: defaultTemplates('phrase'),
  });
  const out = await method.run(sample, { model, tokenizer });
  assert.equal(out.status, 'ok');
  assert.ok(prompts.length >= 4);
  assert.ok(prompts[1].includes('<memory>\nmemory one: Dornbach\n</memory>'), prompts[1].slice(0, 600));
  assert.ok(prompts[2].includes(`<memory>\n${replies[1]}\n</memory>`), 'a reply without </think> is the memory as is');
  assert.equal(out.prediction, 'Dornbach');
});
