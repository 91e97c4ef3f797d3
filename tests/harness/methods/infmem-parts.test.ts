// InfMem's and ReMemR1's pieces against upstream's rules: retrieval units, BM25Okapi, the enhanced search's skips,
// the planner's STOP substring and call parsing, the retrieval history's Python repr, TF-IDF recall.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import {
  Bm25Okapi,
  buildUnits,
  clampTopK,
  InDocumentIndex,
  normalizeQuery,
  retrievedBlock,
  tokenizeMixed,
} from '../../../harness/methods/infmem-retrieval.js';
import {
  parsePlannerOutput,
  pyRepr,
  readSearchArgs,
  retrievalHistory,
} from '../../../harness/methods/infmem-planner.js';
import { qwen3Prompt } from '../../../harness/methods/qwen-chat.js';
import { boxedAnswer, memoryOfReply, recallQuery } from '../../../harness/methods/rememr1.js';
import { top1Retrieve } from '../../../harness/methods/tfidf.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';

test('units: 500-id windows every 400 inside each 5000-id chunk, the last ending at the chunk end', () => {
  const ids = Uint32Array.from({ length: 10_300 }, (_, i) => i);
  const spans: string[] = [];
  const units = buildUnits(ids, (x) => `${x[0]}-${x[x.length - 1] + 1}`, 5000, 500, 100);
  for (const u of units) spans.push(`${u.chunk}:${u.text}`);
  assert.equal(spans[0], '0:0-500');
  assert.equal(spans[1], '0:400-900');
  assert.equal(spans[11], '0:4400-4900');
  assert.equal(spans[12], '0:4800-5000');
  assert.equal(spans[13], '1:5000-5500');
  assert.equal(spans.at(-1), '2:10000-10300');
  assert.equal(units.filter((u) => u.chunk === 0).length, 13);
});

test('tokenize_mixed, query normalisation, top_k clamp', () => {
  assert.deepEqual(tokenizeMixed('Hello, World_2 北京大学'), [
    'hello',
    'world_2',
    '北',
    '京',
    '大',
    '学',
    '北京',
    '京大',
    '大学',
  ]);
  assert.equal(normalizeQuery(' a\n\tb   c ', 'q'), 'a b c');
  assert.equal(normalizeQuery('   ', 'q'), 'q');
  assert.equal(normalizeQuery(5, 'q'), 'q');
  assert.equal(clampTopK(50, 8), 20);
  assert.equal(clampTopK(1, 8), 3);
  assert.equal(clampTopK('12', 8), 12);
  assert.equal(clampTopK(7.9, 8), 7);
  assert.equal(clampTopK(null, 8), 8);
});

test("BM25Okapi: rank_bm25's idf (negative idf floored at epsilon × mean idf) and scores", () => {
  const bm = new Bm25Okapi([
    ['a', 'b'],
    ['a', 'c'],
    ['a', 'd', 'd'],
  ]);
  // idf(a) = ln(0.5) - ln(3.5) < 0 → 0.25 × mean(idf); idf(d) = ln(2.5) - ln(1.5).
  const idf = { a: Math.log(0.5) - Math.log(3.5), x: Math.log(2.5) - Math.log(1.5) };
  const mean = (idf.a + 3 * idf.x) / 4;
  const avg = 7 / 3;
  const part = (tf: number, len: number) => (tf * 2.5) / (tf + 1.5 * (0.25 + (0.75 * len) / avg));
  const s = bm.scores(['a', 'd']);
  assert.ok(Math.abs(s[2] - (0.25 * mean * part(1, 3) + idf.x * part(2, 3))) < 1e-12);
  assert.ok(Math.abs(s[0] - 0.25 * mean * part(1, 2)) < 1e-12);
});

test('search: the current chunk skipped, at most 2 per chunk, near-duplicates dropped, topped up from the ranking', () => {
  const units = [
    { chunk: 0, text: 'marie vell born dornbach' },
    { chunk: 1, text: 'marie vell born dornbach city' },
    { chunk: 1, text: 'marie vell born dornbach city' },
    { chunk: 1, text: 'marie vell was born' },
    { chunk: 1, text: 'vell family' },
    { chunk: 2, text: 'unrelated text here' },
  ];
  const index = new InDocumentIndex(units, { perChunk: 2, jaccard: 0.8 });
  const got = index.search('marie vell born', 4, 0);
  assert.ok(!got.includes(units[0].text), 'the current chunk is excluded');
  assert.deepEqual(got.slice(0, 2).sort(), ['marie vell born dornbach city', 'marie vell was born']);
  assert.equal(got[2], 'unrelated text here', "chunk 2's best, chunk 1 having given 2");
  assert.equal(got[3], 'vell family', 'the top-up skips only the current chunk and texts already chosen');
  assert.equal(got.length, 4, 'topped up');
  assert.equal(new Set(got).size, 4, 'no text twice');
  assert.equal(retrievedBlock(['x', 'y']), '[Retrieved #1] x\n\n[Retrieved #2] y');
});

test('planner output: STOP anywhere is a vote; calls parsed from ✿FUNCTION✿/✿ARGS✿; args read as upstream', () => {
  assert.deepEqual(parsePlannerOutput('<think>maybe STOP later</think>✿FUNCTION✿: retrievesearch'), {
    stop: true,
    calls: [],
  });
  const raw =
    '✿FUNCTION✿: retrievesearch\n✿ARGS✿: {"query": "vell", "top_k": 5} trailing\n✿FUNCTION✿: other\n✿ARGS✿: x';
  assert.deepEqual(parsePlannerOutput(raw).calls, [
    { name: 'retrievesearch', args: '{"query": "vell", "top_k": 5}' },
    { name: 'other', args: 'x' },
  ]);
  assert.deepEqual(readSearchArgs('{"top_k": 4}', 'Q?', 8), { query: 'Q?', topK: 4 });
  assert.deepEqual(readSearchArgs('not json', 'Q?', 8), { query: 'Q?', topK: 8 });
  assert.equal(pyRepr("it's"), '"it\'s"');
  assert.equal(pyRepr('a\nb'), "'a\\nb'");
  assert.equal(
    retrievalHistory(2, 7, [{ query: 'vell', topK: 5 }]),
    "Current retrieval step: 2  Maximum allowed retrieval steps: 7\nStep 1: query='vell', top_k=5",
  );
  assert.equal(
    qwen3Prompt([{ role: 'user', content: 'hi' }], false),
    '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n',
  );
});

test('ReMemR1: memory = reply minus <recall>; first one-line recall; boxed answer after </think>; TF-IDF top 1', () => {
  const reply =
    '<thinking>t</thinking>\n<update>m</update>\n<recall>who\nis</recall><recall>where was Vell born</recall>';
  assert.equal(memoryOfReply(reply), '<thinking>t</thinking>\n<update>m</update>');
  assert.equal(recallQuery(reply), 'where was Vell born');
  assert.equal(boxedAnswer('<think>\\boxed{no}</think> so \\boxed{Dornbach}'), 'Dornbach');
  const tokenizer = loadTokenizer('qwen2.5');
  const past = ['The river runs north.', 'Marie Vell was born in Dornbach.', 'A market square.'];
  assert.equal(top1Retrieve('where was marie vell born', past, tokenizer), past[1]);
  assert.equal(top1Retrieve('', past, tokenizer), null);
});
