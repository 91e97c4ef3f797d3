// RULER's native mode: the model templates as template.py holds them, the three answer-prefix placements, and prompt
// parity: what `bench run --protocol ruler` sends (--store-prompts) equals the rows `bench generate --format ruler`
// writes for the same seed (RULER's `input` + `answer_prefix`, prepare.py's layout), under `base` and, wrapped with
// template.py's literal meta-llama3 string, under `meta-llama3`. Real child processes, the embedded model.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { RULER_MODEL_TEMPLATES, wrapInModelTemplate } from '../../../harness/protocol/ruler-templates.js';
import { nativeRequest } from '../../../harness/methods/native.js';
import type { Sample } from '../../../harness/types.js';
import { rulerRunFlags } from '../../../harness/protocol/ruler-native.js';

test("the model templates are template.py's strings, applied in one pass", () => {
  // Expected strings written out from NVIDIA/RULER scripts/data/template.py (Python escapes applied).
  assert.equal(wrapInModelTemplate('base', 'T'), 'T');
  assert.equal(wrapInModelTemplate('meta-chat', 'T'), '[INST] T [/INST]');
  assert.equal(wrapInModelTemplate('Phi3', 'T'), '<|user|>\nT<|end|>\n<|assistant|>\n');
  assert.equal(
    wrapInModelTemplate('meta-llama3', 'T'),
    '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nT<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
  );
  assert.equal(wrapInModelTemplate('chatglm-chat', 'T'), '[gMASK]sop<|user|> \n T<|assistant|> \n ');
  assert.equal(wrapInModelTemplate('lwm-chat', 'T'), 'You are a helpful assistant. USER: T ASSISTANT: ');
  assert.equal(Object.keys(RULER_MODEL_TEMPLATES).length, 11);
  // A prompt holding `$&` or a placeholder is placed as it is (no replacement patterns, no second pass).
  assert.equal(wrapInModelTemplate('meta-chat', '$& {task_template} $1'), '[INST] $& {task_template} $1 [/INST]');
  assert.equal(wrapInModelTemplate('server', 'T'), 'T');
});

test('the answer prefix: end of a raw prompt, end of the user message, or the assistant message continued', () => {
  const sample = { prompt: { answerPrefix: ' Answer:' } } as unknown as Sample;
  const params = { maxTokens: 32, temperature: 0, topP: 1 };
  const settings = (answerPrefix: 'completion' | 'user' | 'assistant-prefill') => ({
    chatTemplate: 'Phi3' as const,
    answerPrefix,
  });
  const wrapped = '<|user|>\nQ?<|end|>\n<|assistant|>\n';
  assert.deepEqual(nativeRequest(sample, settings('completion'), 'Q?', params), {
    messages: [{ role: 'user', content: `${wrapped} Answer:` }],
    prompt: `${wrapped} Answer:`,
    params,
  });
  assert.deepEqual(nativeRequest(sample, settings('user'), 'Q?', params), {
    messages: [{ role: 'user', content: `${wrapped} Answer:` }],
    params,
  });
  assert.deepEqual(nativeRequest(sample, settings('assistant-prefill'), 'Q?', params), {
    messages: [
      { role: 'user', content: wrapped },
      { role: 'assistant', content: ' Answer:' },
    ],
    continueFinal: true,
    params,
  });
});

test("--protocol ruler's preset: RULER's defaults for the flags not given, the route from the placement", () => {
  assert.deepEqual(rulerRunFlags({}), {
    method: 'native',
    samples: '500',
    lengths: '4k..128k',
    temperature: '0',
    'top-p': '1',
    flavour: 'ruler',
    api: 'completions',
  });
  assert.equal(rulerRunFlags({ samples: '7' }).samples, '7');
  // With --data the rows are the grid: no sample count or lengths of RULER's defaults.
  const withData = rulerRunFlags({ data: 'rows' });
  assert.equal(withData.samples, undefined);
  assert.equal(withData.lengths, undefined);
  assert.equal(withData.method, 'native');
  assert.equal(rulerRunFlags({ 'answer-prefix': 'user' }).api, undefined);
  assert.throws(() => rulerRunFlags({ flavour: 'memagent' }), /drop --flavour memagent/);
  assert.throws(() => rulerRunFlags({ api: 'chat' }), /drop --api chat/);
});

const root = mkdtempSync(join(tmpdir(), 'bench-ruler-native-'));
const TASKS = ['niah_single_1', 'niah_multikey_2', 'vt', 'cwe', 'fwe', 'qa_1'];

/** The rows `bench generate --format ruler` wrote, by "task/index". */
function generatedRows(): Map<string, { input: string; answer_prefix: string }> {
  const rows = new Map<string, { input: string; answer_prefix: string }>();
  for (const task of TASKS) {
    const file = join(root, 'gen', task, '4096', 'data', task, 'validation.jsonl');
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as { index: number; input: string; answer_prefix: string };
      rows.set(`${task}/${r.index}`, r);
    }
  }
  return rows;
}

/** The prompts a run sent, by "task/index" (calls.jsonl's promptHash → prompts/). */
function sentPrompts(dir: string): Map<string, string> {
  const stored = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else stored.set(n.replace(/\.json$/, ''), (JSON.parse(readFileSync(p, 'utf8')) as { prompt: string }).prompt);
    }
  };
  walk(join(dir, 'prompts'));
  const out = new Map<string, string>();
  for (const line of readFileSync(join(dir, 'calls.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const c = JSON.parse(line) as { sampleId: string; promptHash: string };
    const [task, , index] = c.sampleId.split('/');
    out.set(`${task}/${index}`, stored.get(c.promptHash)!);
  }
  return out;
}

beforeAll(async () => {
  for (const task of TASKS) {
    const g = await runBench([
      'generate',
      task,
      '--format',
      'ruler',
      '--flavour',
      'ruler',
      '--lengths',
      '4k',
      '--samples',
      '3',
      '--out',
      join(root, 'gen', task),
    ]);
    assert.equal(g.code, 0, g.stderr);
  }
  for (const template of ['base', 'meta-llama3']) {
    const r = await runBench([
      'run',
      TASKS.join(','),
      '--protocol',
      'ruler',
      '--chat-template',
      template,
      '--lengths',
      '4k',
      '--samples',
      '3',
      '--store-prompts',
      '--no-progress',
      '--out',
      join(root, template),
    ]);
    assert.equal(r.code, 0, r.stderr);
  }
}, 300_000);

test('base: every prompt sent is the generated row input + answer_prefix, byte for byte', () => {
  const rows = generatedRows();
  const sent = sentPrompts(join(root, 'base'));
  assert.equal(sent.size, TASKS.length * 3);
  let same = 0;
  for (const [key, prompt] of sent) {
    const row = rows.get(key)!;
    assert.equal(prompt, row.input + row.answer_prefix, key);
    same++;
  }
  assert.equal(same, 18);
});

test("meta-llama3: template.py's string around the row input, then the answer prefix", () => {
  const rows = generatedRows();
  const sent = sentPrompts(join(root, 'meta-llama3'));
  assert.equal(sent.size, 18);
  for (const [key, prompt] of sent) {
    const row = rows.get(key)!;
    const expected =
      '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n' +
      row.input +
      '<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n' +
      row.answer_prefix;
    assert.equal(prompt, expected, key);
  }
  const manifest = JSON.parse(readFileSync(join(root, 'meta-llama3', 'manifest.json'), 'utf8'));
  assert.equal(manifest.settings['chat-template'], 'meta-llama3');
  assert.equal(manifest.identity.protocol, 'ruler');
  assert.equal(manifest.identity.api, 'completions');
  assert.deepEqual(manifest.identity.decoding.vt, { temperature: 0, top_p: 1 });
});

test("RULER's own rows (--data) under a model template: stripped, then re-wrapped by --chat-template, byte for byte", async () => {
  // Rows as prepare.py --model_template_type meta-llama3 writes them: template.py's string around the task's input
  // (vt's example and cwe's demonstration inside it), the answer prefix apart.
  const [head, tail] = RULER_MODEL_TEMPLATES['meta-llama3'].split('{task_template}');
  const rows = generatedRows();
  const data = join(root, 'llama3-rows');
  for (const task of TASKS) {
    const dir = join(data, '4096', 'data', task);
    mkdirSync(dir, { recursive: true });
    const file = join(root, 'gen', task, '4096', 'data', task, 'validation.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const wrapped = lines.map((l) => {
      const r = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify({ ...r, input: head + String(r.input) + tail });
    });
    writeFileSync(join(dir, 'validation.jsonl'), `${wrapped.join('\n')}\n`);
  }
  const out = join(root, 'llama3-data');
  const r = await runBench([
    'run',
    TASKS.join(','),
    '--data',
    data,
    '--protocol',
    'ruler',
    '--chat-template',
    'meta-llama3',
    '--store-prompts',
    '--no-progress',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const sent = sentPrompts(out);
  assert.equal(sent.size, 18);
  for (const [key, prompt] of sent) {
    const row = rows.get(key)!;
    assert.equal(prompt, head + row.input + tail + row.answer_prefix, key);
  }
  const samples = readFileSync(join(out, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean);
  for (const line of samples) {
    const s = JSON.parse(line) as { metadata: Record<string, unknown>; status: string };
    assert.equal(s.metadata.ruler_model_template, 'meta-llama3');
    assert.equal(s.metadata.flavour, 'ruler');
  }
}, 300_000);

test('--protocol ruler refuses a task without a RULER flavour, and a chat template with a raw completion', async () => {
  const r = await runBench(['run', 'ruler-hqa', '--protocol', 'ruler', '--lengths', '4k', '--samples', '1']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--protocol ruler runs RULER's tasks in RULER's flavour; ruler-hqa has none/);
  const s = await runBench(['run', 'vt', '--protocol', 'ruler', '--chat-template', 'server', '--samples', '1']);
  assert.equal(s.code, 2);
  assert.match(s.stderr, /--chat-template server lets the endpoint's own chat template apply/);
}, 60_000);
