// RULER needle-in-a-haystack: needles read "One of the special magic {type} for {key} is: {value}."

const NEEDLE = /special magic ([A-Za-z]+) for (.{1,120}?) is:? (\S+?)\.?(?=\s|$)/y;
const MARK = 'special magic ';

export interface Needle {
  key: string;
  value: string;
}

/** All needles in the text, in order (linear: one indexOf pass plus a sticky match at each hit). */
export function findNeedles(text: string): Needle[] {
  const out: Needle[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(MARK, from);
    if (at < 0) break;
    NEEDLE.lastIndex = at;
    const m = NEEDLE.exec(text);
    if (m !== null) out.push({ key: m[2].trim(), value: m[3] });
    from = at + MARK.length;
  }
  return out;
}

/** Values of the queried keys, keys in query order and values in text order, without repeats. */
export function needleValues(keys: readonly string[], texts: readonly string[]): string[] {
  const needles = texts.flatMap((t) => findNeedles(t));
  const values: string[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    const k = key.toLowerCase();
    for (const n of needles) {
      if (n.key.toLowerCase() !== k || seen.has(n.value)) continue;
      seen.add(n.value);
      values.push(n.value);
    }
  }
  return values;
}
