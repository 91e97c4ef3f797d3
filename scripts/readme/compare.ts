// What a checked README marker must say, and the comparison with what it says. Pure.
import type { Marker } from './markers.js';

/**
 * What the command's output says the marked text must be:
 * - `values`: inline text holding these strings in this order (numbers with their unit where it matters, e.g. "1.00B",
 *   "5.87 h"; words such as "not significant" too), and no other digit: a number the README adds is unchecked;
 * - `text`: inline text equal to this (whitespace runs count as one space; surrounding backticks ignored);
 * - `excerpt`: a block whose lines appear, in order and together, in the output (lines of dashes, table rules, are
 *   dropped from the output first; trailing spaces ignored).
 */
export type Expected =
  { kind: 'values'; values: string[] } | { kind: 'text'; text: string } | { kind: 'excerpt'; output: string };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `value` as a whole token: no letter or digit glued to either side, nor a decimal part after it. */
function tokenPattern(value: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(value)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u');
}

function compareValues(text: string, values: string[]): string | undefined {
  let rest = text;
  let left = '';
  for (const v of values) {
    const m = tokenPattern(v).exec(rest);
    if (!m) {
      const next = /[−+-]?\p{N}[\p{N},.]*(?:\s?[A-Za-z%]+)?/u.exec(rest);
      return `expected ${JSON.stringify(v)} here${next ? `, the text has ${JSON.stringify(next[0])}` : ''} (values in order: ${values.join(' | ')})`;
    }
    left += rest.slice(0, m.index);
    rest = rest.slice(m.index + m[0].length);
  }
  left += rest;
  const stray = /\p{N}[\p{N},.]*/u.exec(left);
  if (stray) return `a number no command checks: ${JSON.stringify(stray[0])} (checked values: ${values.join(' | ')})`;
  return undefined;
}

const norm = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^`(.*)`$/, '$1');

const isRule = (l: string) => /^[\s-]+$/.test(l) && l.includes('-');

function compareExcerpt(block: string, output: string): string | undefined {
  const want = block.split('\n').map((l) => l.trimEnd());
  while (want.length > 0 && want[want.length - 1] === '') want.pop();
  const have = output
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => !isRule(l));
  if (want.length === 0) return 'the block is empty';
  let best = { at: -1, matched: -1 };
  for (let i = 0; i < have.length; i++) {
    let k = 0;
    while (k < want.length && have[i + k] === want[k]) k++;
    if (k === want.length) return undefined;
    if (k > best.matched) best = { at: i, matched: k };
  }
  if (best.matched <= 0) {
    return `the output has no line ${JSON.stringify(want[0])}; it is:\n${have.join('\n')}`;
  }
  const k = best.matched;
  return (
    `block line ${k + 1} ${JSON.stringify(want[k])} differs from the output's ` +
    `${JSON.stringify(have[best.at + k] ?? '(end of output)')}; the output is:\n${have.slice(best.at, best.at + want.length).join('\n')}`
  );
}

/** Why the marker disagrees with the output, or undefined when it agrees. */
export function compareMarker(marker: Marker, expected: Expected): string | undefined {
  switch (expected.kind) {
    case 'excerpt':
      return marker.block ? compareExcerpt(marker.text, expected.output) : 'expects a fenced block under the marker';
    case 'values':
      return marker.block ? 'expects inline text, not a block' : compareValues(marker.text, expected.values);
    case 'text':
      if (marker.block) return 'expects inline text, not a block';
      return norm(marker.text) === norm(expected.text)
        ? undefined
        : `the text is ${JSON.stringify(norm(marker.text))}, the command prints ${JSON.stringify(norm(expected.text))}`;
  }
}
