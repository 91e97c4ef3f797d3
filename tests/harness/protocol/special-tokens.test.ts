import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { SPECIAL_TOKENS, stripSpecialTokens } from '../../../harness/protocol/special-tokens.js';
import { takeAnswer } from '../../../harness/protocol/answer.js';
import { datasetPath } from '../../../harness/paths.js';
import { scoreAll } from '../scorers/catalog-metrics.js';

test('every Qwen2.5 special token except the tool-call tags (ordinary content in Qwen) is in the list', () => {
  const vocab = JSON.parse(
    gunzipSync(readFileSync(datasetPath('tokenizers', 'qwen2.5.tiktoken.json.gz'))).toString('utf8'),
  ) as { special_tokens: Record<string, number> };
  const expected = Object.keys(vocab.special_tokens).filter((t) => t !== '<tool_call>' && t !== '</tool_call>');
  assert.equal(expected.length, 20);
  for (const t of expected) assert.ok(SPECIAL_TOKENS.includes(t), t);
  assert.ok(!SPECIAL_TOKENS.includes('<tool_call>'));
});

test('stripSpecialTokens deletes the tokens and changes nothing else', () => {
  assert.equal(stripSpecialTokens('yes<|im_end|>'), 'yes');
  assert.equal(stripSpecialTokens('<|im_start|>assistant\nyes<|im_end|>\n<|endoftext|>'), 'assistant\nyes\n');
  assert.equal(stripSpecialTokens('Paris<\uFF5Cend\u2581of\u2581sentence\uFF5C>'), 'Paris');
  assert.equal(stripSpecialTokens('  spaces and <tags> | pipes stay  '), '  spaces and <tags> | pipes stay  ');
  assert.equal(stripSpecialTokens('<|not_a_token|>'), '<|not_a_token|>');
  assert.equal(stripSpecialTokens(null), null);
  assert.equal(stripSpecialTokens(''), '');
});

test('takeAnswer cleans every answer format; a correct "yes<|im_end|>" scores 1 on every QA metric', () => {
  assert.equal(takeAnswer('Therefore, the answer is yes<|im_end|>', 'phrase'), 'yes');
  assert.equal(takeAnswer('Therefore, the answer is yes.<|im_end|><|endoftext|>', 'phrase'), 'yes');
  assert.equal(takeAnswer('\\boxed{yes}<|im_end|>', 'boxed'), 'yes');
  assert.equal(takeAnswer('yes<|eot_id|>', 'raw'), 'yes');
  const raw = 'yes<|im_end|>';
  for (const metric of ['sub_em', 'em', 'f1', 'qa_f1']) {
    assert.equal(scoreAll(metric, takeAnswer(raw, 'raw'), ['yes'], { dataset: 'hotpotqa' }).score, 1, metric);
  }
  assert.equal(scoreAll('qa_f1', raw, ['yes'], { dataset: 'hotpotqa' }).score, 0, 'uncleaned, the token spoils the F1');
});
