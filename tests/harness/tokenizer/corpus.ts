// Real English for the tokenizer tests: the shipped Paul Graham essays and HotpotQA paragraphs.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { packageRoot } from '../../../harness/paths.js';

export function essays(): string[] {
  const dir = join(packageRoot(), 'datasets', 'essays', 'paul_graham');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** Each HotpotQA context paragraph as "title\nsentences", in file order. */
export function hotpotParagraphs(): string[] {
  const file = join(packageRoot(), 'datasets', 'hotpotqa', 'hotpot_dev_distractor_subset.json.gz');
  const records = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { context: [string, string[]][] }[];
  return records.flatMap((r) => r.context.map(([title, sentences]) => `${title}\n${sentences.join('')}`));
}

/** Every k-th item, starting at the first. */
export function everyKth<T>(items: T[], k: number): T[] {
  return items.filter((_, i) => i % k === 0);
}
