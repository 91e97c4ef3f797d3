// Line haystacks: `noise` (the same sentence on every line) and `needle` (distractor needles with random keys and
// values). Needles go before line floor(L × depth / 100) (depth 100: after the last line); lines joined with "\n".
import type { Tokenizer } from '../../harness/types.js';
import type { Rng } from '../../harness/util/rng.js';
import { IdBatcher, TextBatcher, type PlacedNeedle, type StreamingContext } from './context.js';
import type { NeedleInput, PlannedContext, PromptFrame } from './haystack-essay.js';
import type { DistractorCodec, NoiseCodec } from './lines.js';
import { fitUnits, type SeamCounter } from './sizing.js';

/** Filler lines as the sizing and the streaming see them. */
interface Filler {
  /** First word of a filler line (the head at the prompt seam). */
  head: string;
  /** Tokens a line loses when it is the last element (no trailing newline). */
  lastAdjust: number;
  averageTokens: number;
  /** Tokens and characters (newlines included) of lines [0, L). */
  prefixTokens(L: number): number;
  prefixChars(L: number): number;
  /** Lines 0..L-1 in order, each with its trailing newline. */
  replay(L: number): Iterable<{ text: string; ids: Uint32Array }>;
  /** Distractor lines drawn while sizing (released after planning). */
  release(): void;
}

function noiseFiller(noise: NoiseCodec): Filler {
  const tok = noise.nl.length;
  const chars = noise.text.length + 1;
  const line = { text: noise.text, ids: noise.nl };
  return {
    head: noise.text.split(' ')[0],
    lastAdjust: noise.nl.length - noise.last.length,
    averageTokens: tok,
    prefixTokens: (L) => L * tok,
    prefixChars: (L) => L * chars,
    *replay(L) {
      for (let i = 0; i < L; i++) yield line;
    },
    release() {},
  };
}

function distractorFiller(
  codec: DistractorCodec,
  streamRng: () => Rng,
  avoidKeys: Set<string>,
  avoidValues: Set<string>,
): Filler {
  let rng = streamRng();
  let tokPrefix = new Float64Array(1024);
  let charPrefix = new Float64Array(1024);
  let drawn = 0;
  const ensure = (L: number) => {
    while (drawn < L) {
      if (drawn + 1 >= tokPrefix.length) {
        const grow = (a: Float64Array) => {
          const b = new Float64Array(a.length * 2);
          b.set(a);
          return b;
        };
        tokPrefix = grow(tokPrefix);
        charPrefix = grow(charPrefix);
      }
      const line = codec.draw(rng, avoidKeys, avoidValues);
      tokPrefix[drawn + 1] = tokPrefix[drawn] + line.ids.length;
      charPrefix[drawn + 1] = charPrefix[drawn] + line.text.length + 1;
      drawn++;
    }
  };
  ensure(16);
  return {
    head: 'One',
    lastAdjust: codec.endNl.length - codec.end.length,
    averageTokens: tokPrefix[16] / 16,
    prefixTokens(L) {
      ensure(L);
      return tokPrefix[L];
    },
    prefixChars(L) {
      ensure(L);
      return charPrefix[L];
    },
    *replay(L) {
      const r = streamRng();
      for (let i = 0; i < L; i++) yield codec.draw(r, avoidKeys, avoidValues);
    },
    release() {
      tokPrefix = new Float64Array(0);
      charPrefix = new Float64Array(0);
      rng = streamRng();
      drawn = 0;
    },
  };
}

export interface LinesSource {
  kind: 'noise' | 'needle';
  noise?: NoiseCodec;
  distractors?: DistractorCodec;
  /** Fresh stream of distractor lines (same sequence every call). */
  streamRng?: () => Rng;
  avoidKeys?: Set<string>;
  avoidValues?: Set<string>;
}

export function planLines(
  tokenizer: Tokenizer,
  source: LinesSource,
  seams: SeamCounter,
  needles: readonly NeedleInput[],
  frame: PromptFrame,
): PlannedContext {
  const filler =
    source.kind === 'noise'
      ? noiseFiller(source.noise!)
      : distractorFiller(
          source.distractors!,
          source.streamRng!,
          source.avoidKeys ?? new Set(),
          source.avoidValues ?? new Set(),
        );
  const k = needles.length;
  const withNl = needles.map((nd) => tokenizer.encode(nd.text + '\n'));
  const bare = needles.map((nd) => tokenizer.encode(nd.text));
  let needleTokens = 0;
  for (const x of withNl) needleTokens += x.length;

  const positions = (L: number) => needles.map((nd) => Math.floor(L * (nd.depth / 100)));
  const countBefore = seams.count(frame.before);
  const countAfter = seams.count(frame.after);
  // Every element ends with "." (the needle sentence and the noise line alike), so the tail seam is fixed.
  const tailSeam = seams.seam('.', frame.after);
  const total = (L: number): number => {
    const pos = positions(L);
    let ctx = filler.prefixTokens(L) + needleTokens;
    const lastIsNeedle = k > 0 && pos[k - 1] === L;
    ctx -= lastIsNeedle ? withNl[k - 1].length - bare[k - 1].length : filler.lastAdjust;
    const head = k > 0 && pos[0] === 0 ? needles[0].text.split(' ')[0] : filler.head;
    return countBefore + ctx + countAfter + seams.seam(frame.before, head) + tailSeam + frame.reserve;
  };

  const estimate = (frame.budget - frame.reserve - countBefore - countAfter - needleTokens) / filler.averageTokens;
  const L = fitUnits(total, frame.budget, estimate * 0.995, frame.sizing);
  if (L === 0) {
    const minimumTokens = total(1);
    filler.release();
    return {
      minimumTokens,
      context: { tokenCount: 0, pieces: () => [], textPieces: () => [], text: () => '' },
      needles: [],
      units: 0,
      promptTokens: 0,
      extra: {},
    };
  }
  const pos = positions(L);
  const promptTokens = total(L) - frame.reserve;

  const placed: PlacedNeedle[] = [];
  let needleTokSoFar = 0;
  let needleCharsSoFar = 0;
  for (let j = 0; j < k; j++) {
    const last = j === k - 1 && pos[j] === L;
    const own = last ? bare[j] : withNl[j];
    placed.push({
      key: needles[j].key,
      value: needles[j].value,
      text: needles[j].text,
      depth: needles[j].depth,
      charOffset: filler.prefixChars(pos[j]) + needleCharsSoFar,
      tokenOffset: filler.prefixTokens(pos[j]) + needleTokSoFar,
      tokenCount: own.length,
    });
    needleTokSoFar += withNl[j].length;
    needleCharsSoFar += needles[j].text.length + 1;
  }
  const tokenCount =
    filler.prefixTokens(L) +
    needleTokens -
    (pos[k - 1] === L ? withNl[k - 1].length - bare[k - 1].length : filler.lastAdjust);
  const contextChars = filler.prefixChars(L) + needleCharsSoFar - 1;
  filler.release();

  const lastIsNeedle = pos[k - 1] === L;
  const dropNewline = (ids: Uint32Array): Uint32Array =>
    source.kind === 'noise' ? source.noise!.last : source.distractors!.withoutNewline(ids);

  /** Elements in order: needles at position i come before line i. */
  function* elements(): Generator<{ text: string; ids: Uint32Array; last: boolean; needle: number }> {
    let j = 0;
    let i = 0;
    for (const line of filler.replay(L)) {
      while (j < k && pos[j] === i) {
        yield { text: needles[j].text, ids: withNl[j], last: false, needle: j };
        j++;
      }
      yield { text: line.text, ids: line.ids, last: i === L - 1 && !lastIsNeedle, needle: -1 };
      i++;
    }
    while (j < k) {
      yield { text: needles[j].text, ids: j === k - 1 ? bare[j] : withNl[j], last: j === k - 1, needle: j };
      j++;
    }
  }

  const context: StreamingContext = {
    tokenCount,
    *pieces() {
      if (source.kind === 'noise') {
        yield* noisePieces(source.noise!, L, pos, withNl, bare);
        return;
      }
      const batch = new IdBatcher(8192);
      for (const el of elements()) {
        const ids = el.last && el.needle < 0 ? dropNewline(el.ids) : el.ids;
        const out = batch.add(ids);
        if (out) yield out;
      }
      const rest = batch.take();
      if (rest) yield rest;
    },
    *textPieces() {
      const batch = new TextBatcher(65536);
      for (const el of elements()) {
        const out = batch.add(el.last ? el.text : el.text + '\n');
        if (out) yield out;
      }
      const rest = batch.take();
      if (rest) yield rest;
    },
    text() {
      return Array.from(this.textPieces()).join('');
    },
  };
  return {
    context,
    needles: placed,
    units: L,
    promptTokens,
    extra: { haystack_lines: L, distractor_needles: source.kind === 'needle' ? L : 0, context_chars: contextChars },
  };
}

/** A block of noise lines' ids, shared by every noise context of one tokenizer. */
const noiseBlocks = new WeakMap<NoiseCodec, Uint32Array>();
const NOISE_BLOCK_LINES = 512;

/** Noise contexts without copying: runs of lines are sub-arrays of one shared block. */
function* noisePieces(
  noise: NoiseCodec,
  L: number,
  pos: number[],
  withNl: Uint32Array[],
  bare: Uint32Array[],
): Generator<Uint32Array> {
  let block = noiseBlocks.get(noise);
  if (!block) {
    block = new Uint32Array(noise.nl.length * NOISE_BLOCK_LINES);
    for (let i = 0; i < NOISE_BLOCK_LINES; i++) block.set(noise.nl, i * noise.nl.length);
    noiseBlocks.set(noise, block);
  }
  const per = noise.nl.length;
  const k = pos.length;
  const lastIsNeedle = k > 0 && pos[k - 1] === L;
  let line = 0;
  const run = function* (to: number): Generator<Uint32Array> {
    // Lines [line, to); the context's final line drops its newline.
    const end = !lastIsNeedle && to === L ? to - 1 : to;
    while (line < end) {
      const m = Math.min(end - line, NOISE_BLOCK_LINES);
      yield block!.subarray(0, m * per);
      line += m;
    }
    if (line < to) {
      yield noise.last;
      line = to;
    }
  };
  for (let j = 0; j < k; j++) {
    yield* run(pos[j]);
    yield j === k - 1 && lastIsNeedle ? bare[j] : withNl[j];
  }
  yield* run(L);
}
