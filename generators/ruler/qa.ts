// qa_1 / qa_2 (NVIDIA/RULER scripts/data/synthetic/qa.py, docs/PROTOCOLS.md §c.9): a question's own documents among
// others from the pool, as `Document {i}:\n{document}` blocks joined by a blank line. For D documents: own + the
// article's other paragraphs + random others while D exceeds own + more, else own + a random part of more; D at or
// above the pool repeats the pool (RULER; MemAgent's copy stops at the pool, docs/PROTOCOLS.md D24). The D documents
// are shuffled by a generator seeded with the run seed alone (the permutation depends only on D, as RULER's
// random.Random(seed)).
// Sample i asks question i mod Q (our reuse rule once the questions run out; RULER would stop).
// Documents and their ids (of `document + "\n\n"`) are read from the on-disk pool cache one at a time
// (generators/ruler/qa-store.ts), so a sample's memory does not grow with the pool or the length.
import { UserError } from '../../harness/errors.js';
import type { EvidenceSpan, Tokenizer } from '../../harness/types.js';
import { rngFor, type Rng } from '../../harness/util/rng.js';
import { HeaderCache } from '../ruler-hqa/build.js';
import { fitUnits, type SizingRule } from './sizing.js';
import { checkStreams, frameOf, framedTokens, IdMemo, segmentContext } from './segments.js';
import type { SyntheticBuilder, SyntheticEnv, SyntheticPlan, TooSmall } from './synthetic-plan.js';
import { isTooSmall } from './synthetic-plan.js';
import { qaDocumentBlock, syntheticPrompt } from './synthetic-text.js';
import type { QaData, QaQuestion } from './qa-data.js';
import { cachedQaIds, type QaIds } from './qa-store.js';

/** A document can start a segment of its own ids only when its first character starts a pre-token. */
const CLEAN_START = /^[^\s/]/;
const SEPARATOR = '\n\n';

function shuffled(ids: readonly number[], rng: Rng): Int32Array {
  const out = Int32Array.from(ids);
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}

/** RULER's documents for one question at any count D, before the shuffle; the random parts are drawn once as
 *  permutations, so a smaller D takes a prefix of the same draw. */
export interface QaSelection {
  /** Pool index of element j (0 ≤ j < D) of the unshuffled list of D documents. */
  at(j: number, D: number): number;
  /** Sum of the pool counts (document + separator) of the D documents. */
  tokens(D: number): number;
}

export function qaSelection(q: QaQuestion, counts: Int32Array, poolPrefix: Float64Array, rng: Rng): QaSelection {
  const P = counts.length;
  const own = q.own;
  const taken = new Set([...own, ...q.more]);
  const rest: number[] = [];
  for (let i = 0; i < P; i++) if (!taken.has(i)) rest.push(i);
  const more = shuffled(q.more, rng);
  const others = shuffled(rest, rng);
  const sums = (ids: ArrayLike<number>) => {
    const p = new Float64Array(ids.length + 1);
    for (let k = 0; k < ids.length; k++) p[k + 1] = p[k] + counts[ids[k]];
    return p;
  };
  const ownTokens = sums(own)[own.length];
  const moreSums = sums(more);
  const restSums = sums(others);
  const o = own.length;
  const m = more.length;
  return {
    at(j, D) {
      if (D >= P) return j % P;
      if (j < o) return own[j];
      return j < o + m ? more[j - o] : others[j - o - m];
    },
    tokens(D) {
      if (D >= P) return Math.floor(D / P) * poolPrefix[P] + poolPrefix[D % P];
      const e = D - o;
      return ownTokens + (e <= m ? moreSums[e] : moreSums[m] + restSums[e - m]);
    },
  };
}

/** Positions of a D-document list after RULER's fresh-seed shuffle: order[i] is the element at position i. */
function qaOrder(seed: number, D: number): Int32Array {
  return shuffled(
    Array.from({ length: D }, (_, i) => i),
    rngFor('ruler-qa-order', seed),
  );
}

/** The element a backward Fisher–Yates leaves last: its first draw (no need to shuffle to size). */
function lastOf(seed: number, D: number): number {
  return D > 1 ? rngFor('ruler-qa-order', seed).below(D) : 0;
}

interface QaPool {
  pool: QaIds;
  prefix: Float64Array;
}

const pools = new WeakMap<QaData, Map<Tokenizer, QaPool>>();

function qaPool(data: QaData, tokenizer: Tokenizer): QaPool {
  let byTok = pools.get(data);
  if (!byTok) pools.set(data, (byTok = new Map()));
  let p = byTok.get(tokenizer);
  if (!p) {
    const pool = cachedQaIds(data.dataset, data.sha256, data.docs, tokenizer);
    const prefix = new Float64Array(pool.counts.length + 1);
    for (let i = 0; i < pool.counts.length; i++) prefix[i + 1] = prefix[i] + pool.counts[i];
    p = { pool, prefix };
    byTok.set(tokenizer, p);
  }
  return p;
}

/** A question whose text holds a slot of the one-shot template would be filled into by the methods. */
function checkQuery(data: QaData, q: QaQuestion, index: number): void {
  if (/\{(context|question)\}/.test(q.query))
    throw new UserError(
      `${data.source}: question ${index} contains the placeholder text ${/\{(context|question)\}/.exec(q.query)![0]}, which the one-shot prompt would fill in: edit that question`,
    );
}

export function qaBuilder(env: SyntheticEnv, data: QaData): SyntheticBuilder {
  const { tokenizer, seed, flavour, seams, tokensToGenerate } = env;
  const headers = new HeaderCache(tokenizer);
  const memo = new IdMemo(tokenizer, 4096);
  let shared: QaPool | undefined;
  let checked = false;

  const plan = (budget: number, index: number, sizing: SizingRule): SyntheticPlan | TooSmall => {
    shared ??= qaPool(data, tokenizer);
    const { pool, prefix } = shared;
    const docs = data.docs;
    const P = docs.count;
    // RULER sizes on question 0; sample i asks question i mod Q.
    const qIndex = Math.max(0, index) % data.questions.length;
    const q = data.questions[qIndex];
    checkQuery(data, q, qIndex);
    const sel = qaSelection(q, pool.counts, prefix, rngFor('ruler-qa', data.dataset, seed, budget, index));
    const prompt = syntheticPrompt('qa', flavour, { query: q.query });
    const frame = frameOf(prompt.template, prompt.answerPrefix);
    const o = q.own.length;
    const docsOf = (u: number) => u + o - 1;
    const bare = (d: number) => memo.encode(docs.text(d));
    const clean = (d: number) => CLEAN_START.test(docs.first(d));
    const total = (u: number) => {
      const D = docsOf(u);
      const last = sel.at(lastOf(seed, D), D);
      const ctx = headers.total(D) + sel.tokens(D) - pool.counts[last] + bare(last).length;
      return framedTokens(seams, frame, ctx, 'Document', docs.text(last)) + tokensToGenerate;
    };
    const fixed = seams.count(frame.before) + seams.count(frame.after) + tokensToGenerate;
    const perDoc = prefix[P] / P + 6;
    let u = fitUnits(total, budget, Math.max(1, ((budget - fixed) / perDoc) * 0.99), sizing);
    if (u === 0) return { minimumTokens: total(1) };

    // Build, and recount from the segments themselves: a document that does not start a pre-token (rare) is encoded
    // with its header, so the sizing's sum is checked and the count stepped down if it was off.
    for (let guard = 0; ; guard++) {
      const D = docsOf(u);
      const order = qaOrder(seed, D);
      const docAt = (i: number) => sel.at(order[i], D);
      const textAt = (i: number) => qaDocumentBlock(i + 1, docs.text(docAt(i))) + (i === D - 1 ? '' : SEPARATOR);
      const idsAt = (i: number): Uint32Array => {
        const d = docAt(i);
        if (!clean(d)) return memo.encode(textAt(i));
        const head = headers.header(i + 1);
        const body = i === D - 1 ? bare(d) : pool.ids(d);
        const ids = new Uint32Array(head.length + body.length);
        ids.set(head, 0);
        ids.set(body, head.length);
        return ids;
      };
      let ctxTokens = 0;
      const ownPositions: number[] = [];
      const ownSet = new Set(q.own);
      const goldSet = new Set(q.gold ?? []);
      const evidence: EvidenceSpan[] = [];
      for (let i = 0; i < D; i++) {
        const d = docAt(i);
        const start = ctxTokens;
        ctxTokens += clean(d)
          ? headers.header(i + 1).length + (i === D - 1 ? bare(d).length : pool.counts[d])
          : idsAt(i).length;
        if (ownSet.has(d)) ownPositions.push(i + 1);
        if (goldSet.has(d)) evidence.push({ label: `gold paragraph (Document ${i + 1})`, start, end: ctxTokens });
      }
      const promptTokens = framedTokens(seams, frame, ctxTokens, 'Document', docs.text(docAt(D - 1)));
      if (promptTokens + tokensToGenerate > budget && u > 1 && guard < 1000) {
        u--;
        continue;
      }
      return {
        prompt,
        answers: q.outputs,
        context: segmentContext(D, { ids: idsAt, text: textAt }, ctxTokens),
        ...(evidence.length ? { evidence } : {}),
        promptTokens,
        units: u,
        metadata: {
          dataset: data.dataset,
          question_index: qIndex,
          question_pass: Math.floor(Math.max(0, index) / data.questions.length),
          num_docs: D,
          // 1-based positions of the question's own documents in the context.
          own_docs: ownPositions,
          pool_size: P,
          ...(D >= P ? { pool_repeats: Number((D / P).toFixed(4)) } : {}),
          data_sha256: data.sha256,
        },
      };
    }
  };

  return {
    unit: 'docs',
    plan(budget, index, sizing) {
      const p = plan(budget, index, sizing);
      if (!checked && !isTooSmall(p)) {
        checked = true;
        const small = plan(Math.min(budget, 2048), -2, { kind: 'exact' });
        if (!isTooSmall(small)) checkStreams(tokenizer, small.context, data.dataset);
      }
      return p;
    },
    // qa.py: 10 documents fewer per step.
    rulerStep: () => 10,
  };
}
