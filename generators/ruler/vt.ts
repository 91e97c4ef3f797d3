// vt, variable tracking (NVIDIA/RULER scripts/data/synthetic/variable_tracking.py, docs/PROTOCOLS.md §c.9): a chain
// `VAR A = 12345`, `VAR B = VAR A `, … of 5 random 5-letter names hidden among noise lines; the question gives the
// value, the answer is the 5 names. The statements go before random noise lines, in chain order.
// - ruler: lines joined by "\n"; one in-context example (3-letter names, value 12345 in RULER's draw, a prompt of
//   at most 500 tokens) before the template, its names and value redrawn per sample as RULER's randomize_icl does.
// - memagent (taskutils/memory_data/synthetic/variable_tracking.py): each noise unit ends in "\n" and the units and
//   statements are joined by " " (so lines after the first start with a space); no example. The context is stored
//   stripped, as MemAgent's driver strips it before chunking.
import type { EvidenceSpan, Tokenizer } from '../../harness/types.js';
import { rngFor, type Rng } from '../../harness/util/rng.js';
import { fitUnits, largestFitting, type SizingRule } from './sizing.js';
import { checkStreams, frameOf, framedTokens, IdMemo, segmentContext } from './segments.js';
import type { SyntheticBuilder, SyntheticEnv, SyntheticPlan, TooSmall } from './synthetic-plan.js';
import { isTooSmall } from './synthetic-plan.js';
import { VT_CHAINS, VT_HOPS, type RulerFlavour } from './synthetic-spec.js';
import { syntheticPrompt, vtExampleText, VT_NOISE } from './synthetic-text.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const CHAIN = VT_CHAINS * (VT_HOPS + 1);
/** RULER builds its example at max_seq_length 500 with no generation budget. */
const EXAMPLE_BUDGET = 500;

/** `count` distinct names of `letters` upper-case letters. */
export function drawNames(rng: Rng, count: number, letters: number): string[] {
  const out: string[] = [];
  for (let guard = 0; out.length < count; guard++) {
    if (guard > 1000 * count) throw new Error('could not draw distinct variable names');
    let name = '';
    for (let k = 0; k < letters; k++) name += LETTERS[rng.below(26)];
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** numpy.random.randint(10000, 99999): 10000–99998. */
export function drawVtValue(rng: Rng): string {
  return String(rng.int(10000, 99998));
}

/** The chain's statements in order: `VAR A = value`, then `VAR B = VAR A ` (trailing space) per hop. */
export function chainStatements(names: readonly string[], value: string): string[] {
  return names.map((n, j) => (j === 0 ? `VAR ${n} = ${value}` : `VAR ${n} = VAR ${names[j - 1]} `));
}

/** Where the statements go among L noise lines: sorted positions in [0, L), statement j before line p_j. */
function drawPositions(seed: number, budget: number, index: number, L: number, what: string): number[] {
  const rng = rngFor('ruler-vt-positions', what, seed, budget, index, L);
  // random.sample(range(L), 5); fewer than 5 lines (a tiny budget) share positions.
  const picks = L >= CHAIN ? rng.sampleIndices(L, CHAIN) : Array.from({ length: CHAIN }, () => rng.below(L));
  return picks.sort((a, b) => a - b);
}

/** Element kinds of a layout: -1 for a noise line, else the statement's index in the chain. */
function elementKinds(L: number, positions: readonly number[]): Int8Array {
  const kinds = new Int8Array(L + positions.length).fill(-1);
  positions.forEach((p, j) => (kinds[p + j] = j));
  return kinds;
}

/** Lines joined by "\n" (RULER), as text. */
function rulerLinesText(L: number, positions: readonly number[], statements: readonly string[]): string {
  const kinds = elementKinds(L, positions);
  return Array.from(kinds, (k) => (k < 0 ? VT_NOISE : statements[k])).join('\n');
}

interface VtCodec {
  /** RULER: a noise line with its "\n", and the last line without. */
  nl: Uint32Array;
  last: Uint32Array;
  /** MemAgent: " " + noise + "\n" (a unit after the first) and " " + noise (the last unit, stripped). */
  spacedNl: Uint32Array;
  spacedLast: Uint32Array;
}

const codecs = new WeakMap<Tokenizer, VtCodec>();

function vtCodec(tokenizer: Tokenizer): VtCodec {
  let c = codecs.get(tokenizer);
  if (!c) {
    c = {
      nl: tokenizer.encode(`${VT_NOISE}\n`),
      last: tokenizer.encode(VT_NOISE),
      spacedNl: tokenizer.encode(` ${VT_NOISE}\n`),
      spacedLast: tokenizer.encode(` ${VT_NOISE}`),
    };
    codecs.set(tokenizer, c);
  }
  return c;
}

/** The context of L noise lines with the statements placed, in a flavour's layout. */
function vtContext(
  flavour: RulerFlavour,
  codec: VtCodec,
  memo: IdMemo,
  L: number,
  positions: readonly number[],
  statements: readonly string[],
) {
  const kinds = elementKinds(L, positions);
  const n = kinds.length;
  const textAt = (e: number): string => {
    const k = kinds[e];
    const last = e === n - 1;
    if (flavour === 'ruler') return k < 0 ? (last ? VT_NOISE : `${VT_NOISE}\n`) : `${statements[k]}\n`;
    const lead = e === 0 ? '' : ' ';
    return k < 0 ? `${lead}${VT_NOISE}${last ? '' : '\n'}` : lead + statements[k];
  };
  const idsAt = (e: number): Uint32Array => {
    const k = kinds[e];
    if (k >= 0) return memo.encode(textAt(e));
    const last = e === n - 1;
    if (flavour === 'ruler') return last ? codec.last : codec.nl;
    if (last) return e === 0 ? codec.last : codec.spacedLast;
    return e === 0 ? codec.nl : codec.spacedNl;
  };
  let tokens = 0;
  for (let e = 0; e < n; e++) if (kinds[e] >= 0) tokens += idsAt(e).length;
  // Noise lines: the first (MemAgent: unspaced), the last (no newline), the rest alike.
  const noise = L;
  if (flavour === 'ruler') tokens += (noise - 1) * codec.nl.length + codec.last.length;
  else {
    const firstIsNoise = kinds[0] < 0;
    const middle = noise - 1 - (firstIsNoise ? 1 : 0);
    tokens += (firstIsNoise ? codec.nl.length : 0) + middle * codec.spacedNl.length + codec.spacedLast.length;
  }
  // The chain's statements as token spans, in chain order (computed only for the sample's final layout).
  const evidence = (): EvidenceSpan[] => {
    const spans: EvidenceSpan[] = [];
    let at = 0;
    for (let e = 0; e < n; e++) {
      const len = idsAt(e).length;
      const k = kinds[e];
      if (k >= 0) spans[k] = { label: statements[k], start: at, end: at + len };
      at += len;
    }
    return spans.filter(Boolean);
  };
  return {
    context: segmentContext(n, { ids: idsAt, text: textAt }, tokens),
    tokens,
    head: kinds[0] < 0 ? 'The' : 'VAR',
    tail: 'again.',
    evidence,
  };
}

interface VtExample {
  lines: number;
  positions: number[];
}

export function vtBuilder(env: SyntheticEnv): SyntheticBuilder {
  const { tokenizer, seed, flavour, seams, tokensToGenerate } = env;
  const codec = vtCodec(tokenizer);
  const memo = new IdMemo(tokenizer, 4096);
  let example: VtExample | undefined;

  /** RULER's in-context example layout, found once per run as RULER does (3-letter names, value 12345). */
  const exampleLayout = (): VtExample => {
    if (example) return example;
    const rng = rngFor('ruler-vt-example', seed);
    const names = drawNames(rng, CHAIN, 3);
    const statements = chainStatements(names, '12345');
    const positionsAt = (L: number) => drawPositions(seed, EXAMPLE_BUDGET, 0, L, 'example');
    // The example's prompt (answer prefix included, names not) within 500 tokens.
    const p = syntheticPrompt('vt', 'ruler', { query: '12345' });
    const tokens = (L: number) =>
      tokenizer.count(
        p.template.replace('{context}', () => rulerLinesText(L, positionsAt(L), statements)) + p.answerPrefix,
      );
    const lines = Math.max(5, largestFitting(tokens, EXAMPLE_BUDGET, 15));
    example = { lines, positions: positionsAt(lines) };
    return example;
  };

  const plan = (budget: number, index: number, sizing: SizingRule): SyntheticPlan | TooSmall => {
    const rng = rngFor('ruler-vt', seed, budget, index);
    const names = drawNames(rng, CHAIN, 5);
    const value = drawVtValue(rng);
    const statements = chainStatements(names, value);
    let exampleText: string | undefined;
    let exampleFacts: Record<string, unknown> | undefined;
    if (flavour === 'ruler') {
      const layout = exampleLayout();
      const exNames = drawNames(rng, CHAIN, 3);
      const exValue = drawVtValue(rng);
      const lines = rulerLinesText(layout.lines, layout.positions, chainStatements(exNames, exValue));
      exampleText = vtExampleText(lines, exValue, exNames);
      exampleFacts = { lines: layout.lines, names: exNames, value: exValue };
    }
    const prompt = syntheticPrompt('vt', flavour, { query: value, example: exampleText });
    const frame = frameOf(prompt.template, prompt.answerPrefix);
    const layoutAt = (L: number) => {
      const positions = drawPositions(seed, budget, index, L, 'sample');
      return { positions, ...vtContext(flavour, codec, memo, L, positions, statements) };
    };
    const total = (L: number) => {
      const c = layoutAt(L);
      return framedTokens(seams, frame, c.tokens, c.head, c.tail) + tokensToGenerate;
    };
    const fixed = seams.count(frame.before) + seams.count(frame.after) + tokensToGenerate;
    const estimate = (budget - fixed - CHAIN * 12) / codec.nl.length;
    const L = fitUnits(total, budget, estimate * 0.995, sizing);
    if (L === 0) return { minimumTokens: total(1) };
    const built = layoutAt(L);
    const promptTokens = total(L) - tokensToGenerate;
    const kinds = elementKinds(L, built.positions);
    return {
      prompt,
      answers: names,
      context: built.context,
      evidence: built.evidence(),
      promptTokens,
      units: L,
      metadata: {
        haystack_lines: L,
        chain: names,
        value,
        // Element index (0-based line of the context) of each statement, in chain order.
        statement_lines: names.map((_, j) => kinds.indexOf(j)),
        ...(exampleFacts ? { example: exampleFacts } : {}),
      },
    };
  };

  // Start-up check that the segments stream as the text encodes (a small sample of this flavour).
  const probe = plan(1024, -2, { kind: 'exact' });
  if (!isTooSmall(probe)) checkStreams(tokenizer, probe.context, 'vt');

  return {
    unit: 'lines',
    plan,
    // variable_tracking.py: 10 noise lines per step (5 below 4096 tokens).
    rulerStep: (budget) => (budget < 4096 ? 5 : 10),
  };
}
