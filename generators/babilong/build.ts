// One BABILong context, as babilong_utils.py NoiseInjectionDataset builds it: background sentences drawn from the books
// until the token budget is reached (the last one cut to fit), the sample's facts inserted in order between them at
// random sentence boundaries. The context is a plan of sentence ids, streamed as token pieces, so a 10M-token context
// holds ids and per-sentence tokens, never the whole text.
import type { ContextSource, EvidenceSpan, Tokenizer } from '../../harness/types.js';
import type { Rng } from '../../harness/util/rng.js';
import { pyStripEnd, pyStripStart } from '../../harness/protocol/pytext.js';
import type { BabiSample } from './babi.js';

/** SentenceSampler's min_sentence_len: shorter background sentences are skipped. */
export const MIN_SENTENCE_TOKENS = 10;

/** The books' sentences with their token ids in one tokenizer, encoded on first use (' ' + sentence, as upstream). */
export class SentencePool {
  private readonly tokens: Array<Uint32Array | undefined>;
  readonly offsets: number[];
  readonly sentences: string[];

  constructor(
    readonly books: readonly string[][],
    private readonly tokenizer: Tokenizer,
  ) {
    this.offsets = [];
    this.sentences = [];
    for (const b of books) {
      this.offsets.push(this.sentences.length);
      for (const s of b) this.sentences.push(s);
    }
    this.tokens = new Array(this.sentences.length);
  }

  tokensOf(id: number): Uint32Array {
    return (this.tokens[id] ??= this.tokenizer.encode(' ' + this.sentences[id]));
  }
}

/**
 * SentenceSampler.get_sample with shuffle: a random book from a random sentence on, up to `budget × 10` characters
 * (the last, possibly partial, sentence dropped), sentences under MIN_SENTENCE_TOKENS skipped, again until the budget.
 * Returns the sentence ids and how many tokens to cut off the last one.
 */
export function drawBackground(pool: SentencePool, budget: number, rng: Rng): { ids: number[]; cut: number } {
  const ids: number[] = [];
  if (budget <= 0) return { ids, cut: 0 };
  let total = 0;
  for (;;) {
    const book = rng.below(pool.books.length);
    const sentences = pool.books[book];
    let chars = 0;
    const run: number[] = [];
    for (let i = rng.below(sentences.length); i < sentences.length && chars <= budget * 10; i++) {
      run.push(pool.offsets[book] + i);
      chars += sentences[i].length + 1;
    }
    if (run.length > 1) run.pop();
    for (const id of run) {
      const n = pool.tokensOf(id).length;
      if (n < MIN_SENTENCE_TOKENS) continue;
      ids.push(id);
      total += n;
      if (total >= budget) return { ids, cut: total - budget };
    }
  }
}

export interface BuiltBabilong {
  context: ContextSource;
  evidence: EvidenceSpan[];
  /** Background sentences before each fact (upstream's fact_positions). */
  factPositions: number[];
  backgroundSentences: number;
}

/** The facts at sorted random positions among the background sentences (numpy's choice with replacement, sorted). */
export function factPositions(sentences: number, facts: number, rng: Rng): number[] {
  const out: number[] = [];
  for (let i = 0; i < facts; i++) out.push(rng.below(sentences + 1));
  return out.sort((a, b) => a - b);
}

type Piece = { kind: 'fact'; index: number } | { kind: 'sentence'; id: number; last: boolean };

/** The context of `sample` with `budget` tokens of background (none when ≤ 0, BABILong's 0k). */
export function buildContext(
  sample: BabiSample,
  pool: SentencePool,
  budget: number,
  rng: Rng,
  tokenizer: Tokenizer,
): BuiltBabilong {
  const facts = sample.facts.map((f) => tokenizer.encode(' ' + f));
  const factTokens = facts.reduce((n, t) => n + t.length, 0);
  const { ids, cut } = drawBackground(pool, budget - factTokens, rng);
  const positions = factPositions(ids.length, facts.length, rng);

  function* order(): Generator<Piece> {
    let f = 0;
    for (let pos = 0; pos <= ids.length; pos++) {
      while (f < positions.length && positions[f] === pos) yield { kind: 'fact', index: f++ };
      if (pos < ids.length) yield { kind: 'sentence', id: ids[pos], last: pos === ids.length - 1 };
    }
  }
  const raw = (p: Piece): Uint32Array => {
    if (p.kind === 'fact') return facts[p.index];
    const t = pool.tokensOf(p.id);
    return p.last && cut > 0 ? t.subarray(0, t.length - cut) : t;
  };
  const rawText = (p: Piece): string =>
    p.kind === 'fact'
      ? ' ' + sample.facts[p.index]
      : p.last && cut > 0
        ? tokenizer.decode(raw(p))
        : ' ' + pool.sentences[p.id];
  // Upstream strips the decoded context: the first piece loses its leading space, the last any trailing whitespace (a
  // cut sentence can end in a line break); an edge piece whose text changes is encoded again.
  const total = ids.length + facts.length;
  const edges = new Map<number, { text: string; tokens: Uint32Array }>();
  const supporting = new Set(sample.supporting);
  const evidence: EvidenceSpan[] = [];
  let at = 0;
  let k = 0;
  for (const p of order()) {
    if (k === 0 || k === total - 1) {
      const text = rawText(p);
      let stripped = k === 0 ? pyStripStart(text) : text;
      if (k === total - 1) stripped = pyStripEnd(stripped);
      if (stripped !== text) edges.set(k, { text: stripped, tokens: tokenizer.encode(stripped) });
    }
    const n = (edges.get(k)?.tokens ?? raw(p)).length;
    if (p.kind === 'fact' && supporting.has(p.index))
      evidence.push({ label: `supporting fact: ${sample.facts[p.index]}`, start: at, end: at + n });
    at += n;
    k++;
  }

  function* pieces(): Generator<Uint32Array> {
    let i = 0;
    for (const p of order()) yield edges.get(i++)?.tokens ?? raw(p);
  }
  function* pieceTexts(): Generator<string> {
    let i = 0;
    for (const p of order()) yield edges.get(i++)?.text ?? rawText(p);
  }
  const context: ContextSource & { textPieces(): Iterable<string> } = {
    tokenCount: at,
    pieces,
    pieceTexts,
    // bench generate writes the text piece by piece (harness/formats/generate-layout.ts contextText).
    textPieces: pieceTexts,
    text: () => [...pieceTexts()].join(''),
  };
  return { context, evidence, factPositions: positions, backgroundSentences: ids.length };
}
