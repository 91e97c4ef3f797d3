// Essay haystack: the essays' words repeated and cut to N words, needles inserted at sentence boundaries at the
// drawn depths, everything joined with single spaces. Token ids come from the per-word cache (essay.ts), so a
// context of any length is a sequence of sub-arrays of one essay's ids and never materialised.
import type { Tokenizer } from '../../harness/types.js';
import type { StreamingContext, PlacedNeedle } from './context.js';
import type { EssayTokens } from './essay.js';
import { fitUnits, type SeamCounter, type SizingRule } from './sizing.js';

export interface NeedleInput {
  key: string;
  value: string;
  text: string;
  /** Grid depth in percent; needles come sorted by depth. */
  depth: number;
}

export interface PromptFrame {
  /** Text before the context (preamble and its newline). */
  before: string;
  /** Text after the context (newline, question, answer prefix). */
  after: string;
  /** Tokens the whole prompt plus the generation budget may use. */
  budget: number;
  /** Generation tokens counted into the budget. */
  reserve: number;
  /** How the haystack size is chosen (default: the exact largest that fits). */
  sizing?: SizingRule;
}

export interface PlannedContext {
  context: StreamingContext;
  needles: PlacedNeedle[];
  /** Haystack size in its unit (words or lines). */
  units: number;
  /** Tokens of before + context + after (the whole prompt, without the generation reserve). */
  promptTokens: number;
  /** The smallest prompt (one unit) when nothing fits, so the caller can say how much is needed. */
  minimumTokens?: number;
  extra: Record<string, unknown>;
}

interface EssayNeedleIds {
  spaced: Uint32Array;
  bare: Uint32Array;
}

export function planEssay(
  tokenizer: Tokenizer,
  essay: EssayTokens,
  seams: SeamCounter,
  needles: readonly NeedleInput[],
  frame: PromptFrame,
): PlannedContext {
  const { words, ends, flat, tokOff, charOff, firstWordIds } = essay;
  const n = words.length;
  const T = flat.length;
  const C = charOff[n];
  const E = ends.length;
  const ids: EssayNeedleIds[] = needles.map((nd) => ({
    spaced: tokenizer.encode(' ' + nd.text),
    bare: tokenizer.encode(nd.text),
  }));
  let needleSpaced = 0;
  for (const x of ids) needleSpaced += x.spaced.length;
  const k = needles.length;
  const firstWordSpaced = tokOff[1] - tokOff[0];

  const tokAt = (g: number) => Math.floor(g / n) * T + tokOff[g % n];
  const charAt = (g: number) => Math.floor(g / n) * C + charOff[g % n];
  const word = (g: number) => words[g % n];
  /** Number of sentence ends at global word indices < x. */
  const endsBefore = (x: number) => Math.floor(x / n) * E + lowerBound(ends, x % n);
  /** Global word index of the j-th sentence end (0-based). */
  const globalEnd = (j: number) => Math.floor(j / E) * n + ends[j % E];

  /** Word index before which each needle goes, for a haystack of N words (RULER: int(sentences × depth / 100)). */
  const positions = (N: number): number[] => {
    const sentences = E === 0 ? 1 : 1 + endsBefore(N - 1);
    return needles.map((nd) => {
      const s = Math.floor(sentences * (nd.depth / 100));
      if (s <= 0) return 0;
      if (s >= sentences) return N;
      return globalEnd(s - 1) + 1;
    });
  };

  const countBefore = seams.count(frame.before);
  const countAfter = seams.count(frame.after);
  const total = (N: number): number => {
    const pos = positions(N);
    let ctx = tokAt(N) + needleSpaced;
    const firstIsNeedle = k > 0 && pos[0] === 0;
    if (firstIsNeedle) ctx -= ids[0].spaced.length - ids[0].bare.length;
    else ctx -= firstWordSpaced - firstWordIds.length;
    const lastIsNeedle = k > 0 && pos[k - 1] === N;
    const head = firstIsNeedle ? needles[0].text.split(' ')[0] : word(0);
    const tail = lastIsNeedle ? '.' : N === 1 && !firstIsNeedle ? word(0) : ' ' + word(N - 1);
    return (
      countBefore + ctx + countAfter + seams.seam(frame.before, head) + seams.seam(tail, frame.after) + frame.reserve
    );
  };

  const perWord = T / n;
  const estimate = (frame.budget - frame.reserve - countBefore - countAfter - needleSpaced) / perWord;
  const N = fitUnits(total, frame.budget, estimate, frame.sizing);
  if (N === 0) return { minimumTokens: total(1), ...emptyPlan() };
  const pos = positions(N);

  // Parts in context order: word ranges [from, to) and needles; every part but the first has a leading space.
  type Part = { kind: 'words'; from: number; to: number } | { kind: 'needle'; j: number };
  const parts: Part[] = [];
  let g = 0;
  for (let j = 0; j < k; j++) {
    if (pos[j] > g) parts.push({ kind: 'words', from: g, to: pos[j] });
    parts.push({ kind: 'needle', j });
    g = pos[j];
  }
  if (N > g) parts.push({ kind: 'words', from: g, to: N });

  const placed: PlacedNeedle[] = [];
  let tokens = 0;
  let chars = 0;
  parts.forEach((p, i) => {
    const first = i === 0;
    if (p.kind === 'words') {
      tokens += tokAt(p.to) - tokAt(p.from) - (first ? firstWordSpaced - firstWordIds.length : 0);
      chars += charAt(p.to) - charAt(p.from) - (first ? 1 : 0);
    } else {
      const nd = needles[p.j];
      const own = first ? ids[p.j].bare : ids[p.j].spaced;
      placed.push({
        key: nd.key,
        value: nd.value,
        text: nd.text,
        depth: nd.depth,
        charOffset: chars + (first ? 0 : 1),
        tokenOffset: tokens,
        tokenCount: own.length,
      });
      tokens += own.length;
      chars += nd.text.length + (first ? 0 : 1);
    }
  });
  const tokenCount = tokens;

  function* wordIds(from: number, to: number, first: boolean): Generator<Uint32Array> {
    let at = from;
    if (first && at < to) {
      yield firstWordIds;
      at++;
    }
    while (at < to) {
      const base = at - (at % n);
      const end = Math.min(to - base, n);
      yield flat.subarray(tokOff[at - base], tokOff[end]);
      at = base + end;
    }
  }

  function* wordText(from: number, to: number, first: boolean): Generator<string> {
    // Up to 4096 words per piece.
    for (let at = from; at < to;) {
      const base = at - (at % n);
      const end = Math.min(to - base, n, at - base + 4096);
      const text = words.slice(at - base, end).join(' ');
      yield at === from && first ? text : ' ' + text;
      at = base + end;
    }
  }

  const context: StreamingContext = {
    tokenCount,
    *pieces() {
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i];
        if (p.kind === 'words') yield* wordIds(p.from, p.to, i === 0);
        else yield i === 0 ? ids[p.j].bare : ids[p.j].spaced;
      }
    },
    *textPieces() {
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i];
        if (p.kind === 'words') yield* wordText(p.from, p.to, i === 0);
        else yield i === 0 ? needles[p.j].text : ' ' + needles[p.j].text;
      }
    },
    text() {
      return Array.from(this.textPieces()).join('');
    },
  };

  return {
    context,
    needles: placed,
    units: N,
    promptTokens: total(N) - frame.reserve,
    extra: {
      haystack_words: N,
      essay_copies: Number((N / n).toFixed(4)),
      essay_repeats: Math.ceil(N / n),
      essay_words: n,
      essay_sha256: essay.sha256,
      context_chars: chars,
    },
  };
}

function emptyPlan(): Omit<PlannedContext, 'minimumTokens'> {
  const context: StreamingContext = { tokenCount: 0, pieces: () => [], textPieces: () => [], text: () => '' };
  return { context, needles: [], units: 0, promptTokens: 0, extra: {} };
}

/** Number of entries of a sorted array that are < x. */
export function lowerBound(sorted: Uint32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
