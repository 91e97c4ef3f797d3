import { test } from 'vitest';
import assert from 'node:assert/strict';
import { resetLexCaches } from '../../../reference/reader/lex.js';
import { questionInfo } from '../../../reference/reader/question.js';
import { scanText } from '../../../reference/reader/scan.js';

// Two bodies under one title, one of them also under another title, numbers and non-ASCII text.
const BODY_A = 'Ed Wood was an American filmmaker. He directed Plan 9 from Outer Space in 1957.\n\n';
const BODY_B = 'Ed Wood is a 1994 film by Tim Burton. It won 2 Oscars — both for Martin Landau’s role.\n\n';
const section = (order: [string, string][]) =>
  order.map(([title, body], i) => `Document ${i + 1}:\n${title}\n${body}`).join('') + 'Document 99:\nTail\nCut off mid';

const plain = (r: ReturnType<typeof scanText>) => ({
  sents: r.sents.map((s) => ({ ...s, text: r.text.slice(s.start, s.end) })),
  docs: r.docs,
  carry: r.carry,
});

test('a section scanned with lexed bodies from the cache equals the same section scanned cold', () => {
  const q = questionInfo('In which year did the director of Plan 9 from Outer Space win an Oscar?');
  const sections = [
    section([
      ['Ed Wood', BODY_A],
      ['Ed Wood (film)', BODY_B],
    ]),
    section([
      ['Ed Wood', BODY_B],
      ['Ed Wood', BODY_A],
      ['Ed Wood (film)', BODY_A],
    ]),
    section([
      ['Ed Wood (film)', BODY_B],
      ['Ed Wood', BODY_B.replace('1994', '1995')],
    ]),
  ];
  const cold = sections.map((s) => {
    resetLexCaches();
    return plain(scanText(q, s, { title: null, next: 0 }, false));
  });
  resetLexCaches();
  for (let round = 0; round < 2; round++)
    sections.forEach((s, i) => assert.deepEqual(plain(scanText(q, s, { title: null, next: 0 }, false)), cold[i]));
  // What the cold scans found, so that equal-but-empty results cannot pass.
  assert.equal(cold[1].sents.length, 6);
  assert.ok(cold[1].sents.some((s) => s.text.includes('Oscars') && s.heavy === 3));
  assert.equal(cold[2].sents.find((s) => s.text.includes('1995'))?.doc, 2);
});
