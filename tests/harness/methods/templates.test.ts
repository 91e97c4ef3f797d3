// --final boxed-upstream (docs/PROTOCOLS.md D17): upstream's boxed full-context prompt, utils/boxed.py, is a Python
// template written for str.format ("\\boxed{{}}") but filled with str.replace, so the model reads \boxed{{}}; its
// boxed MemAgent final prompt (utils/recurrent_boxed.py) goes through str.format and reads \boxed{}.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { parseCli } from '../../../cli/parse.js';
import { textContext } from '../../../harness/context.js';
import { fullContextMethod } from '../../../harness/methods/full-context.js';
import { methodIdentity, methods } from '../../../harness/methods/index.js';
import { memAgentMethod } from '../../../harness/methods/memagent.js';
import {
  asksBoxed,
  defaultTemplates,
  FULL_CONTEXT_BOXED,
  MEMAGENT_FINAL_BOXED,
} from '../../../harness/methods/templates.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { Model, ModelRequest, Sample } from '../../../harness/types.js';

const tokenizer = loadTokenizer('qwen2.5');

// utils/boxed.py template_0shot as the Python source spells it: in a non-raw string "\\b" is one backslash and a b.
const BOXED_PY =
  'Please read the following text and answer the question below.\n\n<text>\n$DOC$\n</text>\n\n$Q$\n\nPut the answer in \\boxed{{}}.';

function recorder(reply: string): { model: Model; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const model: Model = {
    id: 'rec',
    isReferenceReader: false,
    async generate(request) {
      seen.push(request);
      return {
        text: reply,
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

function sample(context: string, question: string): Sample {
  return {
    id: 't/1/0',
    task: 't',
    taskVersion: '1',
    length: { kind: 'tokens', value: 1, label: '1' },
    index: 0,
    question,
    answers: ['Paris'],
    context: textContext(context, tokenizer),
    metric: 'sub_em',
    metadata: {},
  };
}

test("--final boxed-upstream sends utils/boxed.py's bytes: the doubled braces reach the model", async () => {
  const context = 'Paris is the capital of France. {braces} stay as they are.';
  const question = '  What is the capital of France? ';
  const { model, seen } = recorder('Thinking... \\boxed{Paris}');
  const method = fullContextMethod({
    maxContext: 120000,
    maxNewTokens: 64,
    templates: defaultTemplates('boxed-upstream'),
  });
  const out = await method.run(sample(context, question), { model, tokenizer });
  // prompt = template_0shot.replace('$DOC$', context.strip()).replace('$Q$', item['input'].strip())
  assert.equal(seen[0].messages[0].content, BOXED_PY.replace('$DOC$', context.trim()).replace('$Q$', question.trim()));
  assert.ok(seen[0].messages[0].content.endsWith('Put the answer in \\boxed{{}}.'));
  assert.equal(out.prediction, 'Paris', 'the reply is read as boxed');

  // --final boxed keeps our single-brace variant.
  const plain = recorder('\\boxed{Paris}');
  await fullContextMethod({ maxContext: 120000, maxNewTokens: 64, templates: defaultTemplates('boxed') }).run(
    sample(context, question),
    { model: plain.model, tokenizer },
  );
  assert.ok(plain.seen[0].messages[0].content.endsWith('Put the answer in \\boxed{}.'));
  assert.ok(FULL_CONTEXT_BOXED.endsWith('\\boxed{}.'));
});

test("boxed-upstream's MemAgent final prompt is recurrent_boxed.py's after str.format: single braces", async () => {
  const t = defaultTemplates('boxed-upstream');
  assert.equal(t.final, MEMAGENT_FINAL_BOXED);
  assert.equal(t.update, defaultTemplates('phrase').update);
  // TEMPLATE_FINAL.format(prompt=..., memory=...) turns "\\boxed{{}}" into "\boxed{}".
  assert.ok(t.final.includes('put the answer in \\boxed{}.'));
  const { model, seen } = recorder('\\boxed{Paris}');
  const out = await memAgentMethod({ chunkTokens: 5000, memoryTokens: 64, templates: t }).run(
    sample('Paris is the capital.', 'Capital?'),
    { model, tokenizer },
  );
  assert.equal(out.prediction, 'Paris');
  assert.ok(seen.at(-1)!.messages[0].content.includes('\\boxed{}.'));
  assert.equal(asksBoxed(t.fullContext), true);
  assert.equal(asksBoxed(defaultTemplates('phrase').fullContext), false);
});

test('--final boxed-upstream is a choice of the CLI and its own run identity', () => {
  const cmd = parseCli(['run', 'ruler-hqa', '--method', 'full-context', '--final', 'boxed-upstream']);
  assert.equal(cmd.command, 'run');
  if (cmd.command !== 'run') return;
  const settings = cmd.config.methodSettings;
  const a = methodIdentity(methods.get('full-context'), settings);
  const b = methodIdentity(methods.get('full-context'), { ...settings, final: 'boxed' });
  assert.match(String(a.templates), /^memagent-boxed-upstream:/);
  assert.notEqual(a.templates, b.templates);
});
