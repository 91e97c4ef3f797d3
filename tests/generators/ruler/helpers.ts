// Shared checks for the NIAH tests.
import assert from 'node:assert/strict';
import type { GeneratedSample, Tokenizer } from '../../../harness/types.js';

export interface NeedleMeta {
  key: string;
  value: string;
  depth: number;
  char_offset: number;
  value_char_offset: number;
  token_offset: number;
  token_count: number;
  queried: boolean;
}

export function needlesOf(s: GeneratedSample): NeedleMeta[] {
  return s.metadata.needles as NeedleMeta[];
}

export { concatIds } from '../../helpers/context.js';

export function sameIds(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The RULER prompt exactly as `bench generate --format ruler` lays it out (template, context, answer prefix). */
export function fullPrompt(s: GeneratedSample, text: string): string {
  return s.prompt!.nativeTemplate!.replace('{context}', () => text) + s.prompt!.answerPrefix!;
}

function countOccurrences(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) n++;
  return n;
}

/**
 * Gold values sit where the metadata says (chars and tokens), each exactly once; the queried keys appear only
 * in the real needles (never in a distractor line); the answers are the queried keys' values in query order.
 */
export function checkNeedles(
  s: GeneratedSample,
  text: string,
  tokenizer: Tokenizer,
  ids?: Uint32Array,
  label = 'sample',
): void {
  const needles = needlesOf(s);
  const queries = s.metadata.queries as string[];
  const valueKind = s.metadata.value_kind as string;
  for (const n of needles) {
    const sentence = `One of the special magic ${valueKind} for ${n.key} is: ${n.value}.`;
    assert.equal(
      text.slice(n.char_offset, n.char_offset + sentence.length),
      sentence,
      `${label}: needle text at char ${n.char_offset}`,
    );
    assert.equal(
      text.slice(n.value_char_offset, n.value_char_offset + n.value.length),
      n.value,
      `${label}: value at char ${n.value_char_offset}`,
    );
    assert.equal(countOccurrences(text, n.value), 1, `${label}: value ${n.value} occurs exactly once`);
    if (ids) {
      const decoded = tokenizer.decode(ids.subarray(n.token_offset, n.token_offset + n.token_count));
      assert.equal(decoded.trim(), sentence, `${label}: needle tokens at ${n.token_offset}`);
    }
  }
  // Answers: values of the queried keys, in query order.
  const expected = queries.flatMap((q) => needles.filter((n) => n.key === q).map((n) => n.value));
  const perKey = new Map<string, number>();
  for (const n of needles) perKey.set(n.key, (perKey.get(n.key) ?? 0) + 1);
  assert.deepEqual([...s.answers].sort(), [...expected].sort(), `${label}: answers are the queried needles' values`);
  let at = 0;
  for (const q of queries) {
    const vals = needles
      .filter((n) => n.key === q)
      .map((n) => n.value)
      .sort();
    assert.deepEqual(s.answers.slice(at, at + vals.length).sort(), vals, `${label}: answers in query order`);
    at += vals.length;
  }
  // A queried key is carried by its real needles only: no distractor line has it.
  for (const q of queries) {
    assert.equal(
      countOccurrences(text, ` for ${q} is: `),
      perKey.get(q),
      `${label}: key ${q} appears only in its real needles`,
    );
  }
  assert.ok(
    s.question.includes(queries.length === 1 ? queries[0] : queries[queries.length - 1]),
    `${label}: question names the query`,
  );
}
