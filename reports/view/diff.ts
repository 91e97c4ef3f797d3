// A word-level diff of two memories for `bench view`: the common head and tail are cut first (a memory is mostly
// rewritten in place), then the longest common subsequence of the middle words; a middle too large for that is
// shown as removed-then-added.

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

const MAX_CELLS = 4_000_000;

function words(s: string): string[] {
  return s.split(/(\s+)/).filter((w) => w !== '');
}

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before);
  const b = words(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const parts: DiffPart[] = [];
  if (head) push(parts, 'same', a.slice(0, head).join(''));
  const ma = a.slice(head, a.length - tail);
  const mb = b.slice(head, b.length - tail);
  if ((ma.length + 1) * (mb.length + 1) > MAX_CELLS) {
    if (ma.length) push(parts, 'removed', ma.join(''));
    if (mb.length) push(parts, 'added', mb.join(''));
  } else {
    // lcs[i][j]: LCS length of ma[i..] and mb[j..].
    const w = mb.length + 1;
    const lcs = new Uint32Array((ma.length + 1) * w);
    for (let i = ma.length - 1; i >= 0; i--)
      for (let j = mb.length - 1; j >= 0; j--)
        lcs[i * w + j] =
          ma[i] === mb[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    let i = 0;
    let j = 0;
    while (i < ma.length || j < mb.length) {
      if (i < ma.length && j < mb.length && ma[i] === mb[j]) {
        push(parts, 'same', ma[i++]);
        j++;
      } else if (j < mb.length && (i === ma.length || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]))
        push(parts, 'added', mb[j++]);
      else push(parts, 'removed', ma[i++]);
    }
  }
  if (tail) push(parts, 'same', a.slice(a.length - tail).join(''));
  return parts;
}
