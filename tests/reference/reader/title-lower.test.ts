// A title's lowercase is taken from the lowercased section (scan.ts) rather than lowercased again: the same as the
// title's own toLowerCase() even where case mapping depends on context (Greek final sigma) or changes lengths.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { questionInfo } from '../../../reference/reader/question.js';
import { scanText, storedScorer } from '../../../reference/reader/scan.js';

const TITLES = [
  'ΟΔΥΣΣΕΥΣ',
  'ΟΔΥΣΣΕΥΣ (ταινία)',
  'Σ',
  '  ΚΟΣΜΟΣ  ',
  '\ufeffΠΑΡΑΔΕΙΣΟΣ\ufeff',
  'Ed Wood (film)',
  'Öster MALMÖ',
];

function section(titles: string[], extra = ''): string {
  return titles.map((t, i) => `Document ${i + 1}:\n${t}\nΑΣ Ed Wood directed films in Σ. ${extra}\n\n`).join('');
}

test('documents scanned from a section carry the lowercase and title terms of their titles computed alone', () => {
  const q = questionInfo('Which film did Ed Wood direct in ΟΔΥΣΣΕΥΣ or Malmö?');
  // The second section holds İ, whose lowercase is two characters long: the section is lowercased char by char.
  for (const text of [section(TITLES), section(TITLES, 'İstanbul')]) {
    const scan = scanText(q, text, { title: null, next: 0 }, true);
    const titled = scan.docs.filter((d) => d.title !== null);
    assert.equal(titled.length, TITLES.length);
    for (const d of titled) {
      const alone = storedScorer(q).doc(d.title);
      assert.equal(d.lower, d.title!.toLowerCase());
      assert.deepEqual({ ...d }, { ...alone });
    }
  }
  // Not vacuous: the final sigma and the question's title words were seen.
  assert.ok(scan0(q).some((d) => d.lower === 'οδυσσευς'));
  assert.ok(scan0(q).some((d) => d.titleTerms.length > 0 && d.titleBonus > 0));
});

function scan0(q: ReturnType<typeof questionInfo>) {
  return scanText(q, section(TITLES), { title: null, next: 0 }, true).docs;
}
