import { UserError } from '../../harness/errors.js';
import type { ContextSource, EvidenceSpan, LengthTarget, Tokenizer } from '../../harness/types.js';
import { renderParagraph, type HotpotRecord } from './hotpotqa.js';
import { overTarget } from '../../harness/config/lengths.js';
import { roundTrips } from '../../harness/tokenizer/round-trip.js';
import { rngFor } from '../../harness/util/rng.js';
import type { ParagraphPool } from './pool.js';
import { type Placement, placementPositions } from './placement.js';

export interface BuiltContext {
  context: ContextSource;
  /** Pool index of each document, in context order. */
  order: Int32Array;
  metadata: Record<string, unknown>;
  /** The supporting paragraphs' token spans (header included), in context order. */
  evidence: EvidenceSpan[];
}

/**
 * Token ids of `Document {i}:\n`, cached per tokenizer. When the tokenizer splits digits one by one (Qwen), a header
 * is composed from the ids of "Document ", each digit and ":\n" (verified against real encodes at start-up);
 * otherwise each header is encoded.
 */
export class HeaderCache {
  private ids: Uint32Array[] = [];
  private texts: string[] = [];
  private prefix: number[] = [0];
  private compose?: (i: number) => Uint32Array;
  constructor(private tokenizer: Tokenizer) {
    const head = tokenizer.encode('Document ');
    const tail = tokenizer.encode(':\n');
    const digits = Array.from({ length: 10 }, (_, d) => tokenizer.encode(String(d)));
    if (digits.every((d) => d.length === 1)) {
      const compose = (i: number) => {
        const s = String(i);
        const out = new Uint32Array(head.length + s.length + tail.length);
        out.set(head, 0);
        for (let k = 0; k < s.length; k++) out[head.length + k] = digits[s.charCodeAt(k) - 48][0];
        out.set(tail, head.length + s.length);
        return out;
      };
      const same = (a: Uint32Array, b: Uint32Array) => a.length === b.length && a.every((x, k) => x === b[k]);
      if (
        [1, 9, 10, 42, 99, 100, 1234, 25600, 123456].every((i) =>
          same(compose(i), tokenizer.encode(`Document ${i}:\n`)),
        )
      )
        this.compose = compose;
    }
  }
  /** `Document {i}:\n` as text (kept: windows take it at every document). */
  headerText(i: number): string {
    while (this.texts.length < i) this.texts.push(`Document ${this.texts.length + 1}:\n`);
    return this.texts[i - 1];
  }
  header(i: number): Uint32Array {
    while (this.ids.length < i) {
      const n = this.ids.length + 1;
      this.ids.push(this.compose ? this.compose(n) : this.tokenizer.encode(`Document ${n}:\n`));
    }
    return this.ids[i - 1];
  }
  /** Total header tokens of documents 1..n. */
  total(n: number): number {
    while (this.prefix.length <= n)
      this.prefix.push(this.prefix[this.prefix.length - 1] + this.header(this.prefix.length).length);
    return this.prefix[n];
  }
}

export interface BuildInput {
  record: HotpotRecord;
  pool: ParagraphPool;
  headers: HeaderCache;
  tokenizer: Tokenizer;
  length: LengthTarget;
  seed: number;
  index: number;
  placement: Placement;
  version: string;
}

/**
 * One RULER-HQA context: the question's own paragraphs plus distractors drawn uniformly without replacement from the
 * rest of the pool (reused pass after pass when the pool runs out), as `Document {i}:\n{title}\n{text}` blocks joined
 * by a blank line. Sized to a token target (context tokens, the unit MemAgent chunks) or to a document count. A
 * context never exceeds its token target unless the question's own paragraphs alone do; then it holds only those and
 * its metadata says so (over_target, target_tokens, built_tokens).
 */
export function buildHqaContext(input: BuildInput): BuiltContext {
  const { record, pool, headers, tokenizer, length, seed, index, placement, version } = input;
  const rng = rngFor('ruler-hqa', version, seed, length.kind, length.value, index);
  const own: number[] = [];
  const supporting: number[] = [];
  for (const [title, sentences] of record.paragraphs) {
    const at = pool.indexOf.get(renderParagraph(title, sentences));
    if (at === undefined || own.includes(at)) continue;
    own.push(at);
    if (record.supportingTitles.includes(title)) supporting.push(at);
  }
  const ownSet = new Set(own);
  const available = pool.texts.length - own.length;
  if (available <= 0) throw new UserError('the HotpotQA pool has no distractor paragraphs');

  // Distractors: successive seeded permutations of the pool minus the question's own paragraphs.
  const distractors: number[] = [];
  let perm: number[] = [];
  let cursor = 0;
  let passes = 0;
  const refill = () => {
    perm = [];
    for (let i = 0; i < pool.texts.length; i++) if (!ownSet.has(i)) perm.push(i);
    rng.shuffle(perm);
    cursor = 0;
    passes++;
  };

  let paraTokens = 0;
  for (const p of own) paraTokens += pool.counts[p];
  if (length.kind === 'docs') {
    if (length.value < own.length)
      throw new UserError(
        `docs:${length.value} is smaller than a question's own ${own.length} paragraphs; use docs:50 or more`,
      );
    while (own.length + distractors.length < length.value) {
      if (cursor >= perm.length) refill();
      const d = perm[cursor++];
      distractors.push(d);
      paraTokens += pool.counts[d];
    }
  } else {
    for (;;) {
      if (cursor >= perm.length) refill();
      const d = perm[cursor];
      const n = own.length + distractors.length + 1;
      if (headers.total(n) + paraTokens + pool.counts[d] > length.value) break;
      cursor++;
      distractors.push(d);
      paraTokens += pool.counts[d];
    }
  }

  const docs = [...own, ...distractors];
  const order = arrange(docs, supporting, placement, rng);
  const n = order.length;
  const last = order[n - 1];
  const lastText = pool.texts[last].trimEnd();
  const lastIds = tokenizer.encode(lastText);
  const tokenCount = headers.total(n) + paraTokens - pool.counts[last] + lastIds.length;

  const goldDocs: number[] = [];
  const goldTokenOffsets: number[] = [];
  const ownDocs: number[] = [];
  const evidence: EvidenceSpan[] = [];
  let offset = 0;
  for (let i = 0; i < n; i++) {
    const p = order[i];
    const size = headers.header(i + 1).length + (i === n - 1 ? lastIds.length : pool.counts[p]);
    if (supporting.includes(p)) {
      goldDocs.push(i + 1);
      goldTokenOffsets.push(offset);
      evidence.push({ label: `supporting paragraph (Document ${i + 1})`, start: offset, end: offset + size });
    }
    if (ownSet.has(p)) ownDocs.push(i + 1);
    offset += size;
  }

  const pieces = function* (): Iterable<Uint32Array> {
    for (let i = 0; i < n; i++) {
      yield headers.header(i + 1);
      yield i === n - 1 ? lastIds : pool.ids[order[i]];
    }
  };
  const lastTextExact = roundTrips(lastText);
  const pieceTexts = function* (): Iterable<string> {
    for (let i = 0; i < n; i++) {
      yield headers.headerText(i + 1);
      if (i < n - 1) yield pool.pieceText(order[i]);
      else yield lastTextExact ? lastText : tokenizer.decode(lastIds);
    }
  };
  const context: ContextSource = {
    tokenCount,
    pieces,
    pieceTexts,
    text() {
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(`Document ${i + 1}:\n${i === n - 1 ? lastText : pool.texts[order[i]]}`);
      return parts.join('\n\n');
    },
  };
  const reuseFactor = Number((distractors.length / available).toFixed(4));
  return {
    context,
    order,
    evidence,
    metadata: {
      dev_index: record.devIndex,
      hotpot_id: record.id,
      question_type: record.type,
      num_docs: n,
      gold_docs: goldDocs,
      gold_token_offsets: goldTokenOffsets,
      own_docs: ownDocs,
      distractors: distractors.length,
      pool_size: pool.texts.length,
      reuse_factor: reuseFactor,
      pool_passes: passes,
      placement,
      // Only when the question's own paragraphs alone exceed the token target (harness/config/lengths.ts overTarget).
      ...overTarget(length, tokenCount),
    },
  };
}

/** Seeded order of the documents; with a probe placement the two supporting paragraphs go to fixed relative positions. */
function arrange(
  docs: number[],
  supporting: number[],
  placement: Placement,
  rng: ReturnType<typeof rngFor>,
): Int32Array {
  const positions = placementPositions(placement);
  if (!positions || supporting.length < 2) return Int32Array.from(rng.shuffle([...docs]));
  const [s1, s2] = rng.below(2) === 0 ? [supporting[0], supporting[1]] : [supporting[1], supporting[0]];
  const rest = rng.shuffle(docs.filter((d) => d !== s1 && d !== s2));
  const n = docs.length;
  const i1 = Math.round(positions[0] * (n - 1));
  let i2 = Math.round(positions[1] * (n - 1));
  if (i2 === i1) i2 = Math.min(n - 1, i1 + 1) === i1 ? i1 - 1 : i1 + 1;
  const out = new Int32Array(n).fill(-1);
  out[i1] = s1;
  out[i2] = s2;
  let r = 0;
  for (let i = 0; i < n; i++) if (out[i] === -1) out[i] = rest[r++];
  return out;
}
