// A word-level diff of two memories for `bench view`: the common head and tail are cut first (a memory is mostly
// rewritten in place), then Myers' O((N+M)·D) shortest edit script over the middle's words (as integers). An edit
// longer than MAX_EDITS (a memory rewritten from scratch) is shown as the middle removed, then added.

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

/** Edits beyond which the middle is shown replaced whole (bounds the work at (N+M)·MAX_EDITS). */
const MAX_EDITS = 2000;

/** Words with the whitespace after them (a token is a word and its gap). */
function words(s: string): string[] {
  return s.match(/\s*\S+\s*|\s+/g) ?? [];
}

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string): void {
  if (text === '') return;
  const last = parts[parts.length - 1];
  if (last && last.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** Myers' greedy forward search; returns the edit path as 'same' / 'removed' / 'added' steps, or null past `max`. */
function myers(a: Int32Array, b: Int32Array, max: number): Array<'same' | 'removed' | 'added'> | null {
  const n = a.length;
  const m = b.length;
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(next);
        return backtrack(trace, n, m, offset);
      }
    }
    v = next;
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, offset: number): Array<'same' | 'removed' | 'added'> {
  const path: Array<'same' | 'removed' | 'added'> = [];
  let x = n;
  let y = m;
  // trace[d] holds the furthest x per diagonal before step d; trace[d + 1] after it.
  for (let d = trace.length - 2; d >= 0; d--) {
    const v = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      path.push('same');
      x--;
      y--;
    }
    if (d > 0) {
      path.push(down ? 'added' : 'removed');
      if (down) y--;
      else x--;
    }
  }
  while (x > 0 && y > 0) {
    path.push('same');
    x--;
    y--;
  }
  return path.reverse();
}

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before);
  const b = words(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const parts: DiffPart[] = [];
  push(parts, 'same', a.slice(0, head).join(''));
  const ma = a.slice(head, a.length - tail);
  const mb = b.slice(head, b.length - tail);
  const ids = new Map<string, number>();
  const idOf = (t: string) => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    return id;
  };
  const path = myers(Int32Array.from(ma, idOf), Int32Array.from(mb, idOf), Math.min(MAX_EDITS, ma.length + mb.length));
  if (path === null) {
    push(parts, 'removed', ma.join(''));
    push(parts, 'added', mb.join(''));
  } else {
    let i = 0;
    let j = 0;
    for (const step of path) {
      if (step === 'same') {
        push(parts, 'same', ma[i++]);
        j++;
      } else if (step === 'removed') push(parts, 'removed', ma[i++]);
      else push(parts, 'added', mb[j++]);
    }
  }
  push(parts, 'same', a.slice(a.length - tail).join(''));
  return parts;
}
