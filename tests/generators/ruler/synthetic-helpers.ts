// Shared pieces of the vt / cwe / fwe / qa tests: preparing a task in a flavour, and reading the gold answers back
// out of the generated text (what the text says, recomputed without the generator's metadata).
import type { GeneratedSample, LengthTarget, Tokenizer } from '../../../harness/types.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { syntheticTasks } from '../../../generators/ruler/synthetic-tasks.js';
import { tokenLabel } from '../../../harness/config/lengths.js';

export const tokenizer: Tokenizer = loadTokenizer('qwen2.5');

export function tokens(value: number): LengthTarget {
  return { kind: 'tokens', value, label: tokenLabel(value) };
}

export async function prepare(name: string, options: Record<string, string> = {}, seed = 42) {
  const task = syntheticTasks.find((t) => t.name === name)!;
  return task.prepare({ tokenizer, seed, options });
}

/** The RULER prompt as `bench generate --format ruler` lays it out: template with the context, answer prefix. */
export function onePrompt(s: GeneratedSample, text = s.context.text()): string {
  return s.prompt!.nativeTemplate!.replace('{context}', () => text) + s.prompt!.answerPrefix!;
}

/** vt: the variables whose chain of `VAR X = …` statements in the text resolves to `value`. */
export function resolvingVariables(text: string, value: string): string[] {
  const assigned = new Map<string, string>();
  for (const m of text.matchAll(/VAR ([A-Z]+) = (VAR ([A-Z]+)|\d+)/g)) assigned.set(m[1], m[3] ?? m[2]);
  const resolve = (v: string, depth = 0): string | undefined => {
    const rhs = assigned.get(v);
    if (rhs === undefined || depth > 100) return undefined;
    return /^\d+$/.test(rhs) ? rhs : resolve(rhs, depth + 1);
  };
  return [...assigned.keys()].filter((v) => resolve(v) === value);
}

/** Word counts, most frequent first (ties in order of first sight). */
export function countsOf(words: readonly string[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
}

/** cwe: the numbered words `1. w 2. w …`, checking the numbers run 1, 2, 3, … */
export function numberedWords(text: string): { words: string[]; consecutive: boolean } {
  const items = [...text.matchAll(/(?:^| )(\d+)\. (\S+)/g)];
  return { words: items.map((m) => m[2]), consecutive: items.every((m, i) => Number(m[1]) === i + 1) };
}

export function sameIds(a: Uint32Array, pieces: Iterable<Uint32Array>): boolean {
  let at = 0;
  for (const p of pieces) {
    for (let k = 0; k < p.length; k++) if (a[at + k] !== p[k]) return false;
    at += p.length;
  }
  return at === a.length;
}

export function snapshot(s: GeneratedSample): string {
  return JSON.stringify({ ...s, context: s.context.text(), tokens: s.context.tokenCount });
}
