import { UserError } from '../../harness/errors.js';
import type { LengthTarget, PreparedTask, GeneratedSample, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { loadHotpot, renderParagraph, type HotpotData } from './hotpotqa.js';
import { buildHqaContext, HeaderCache } from './build.js';
import { buildPool } from './pool.js';
import { parsePlacement, placementPositions, PLACEMENTS, type Placement } from './placement.js';

export const RULER_HQA_VERSION = '1';

/**
 * A placement needs each question's two supporting paragraphs; a record whose supporting_facts do not name two of its
 * paragraphs would silently get the ordinary shuffle under the placement's label, so it is refused (`why` says who
 * places them).
 */
export function checkSupportingFacts(data: HotpotData, why: string): void {
  data.records.forEach((r, i) => {
    const supporting = new Set(
      r.paragraphs.filter(([title]) => r.supportingTitles.includes(title)).map(([t, s]) => renderParagraph(t, s)),
    );
    if (supporting.size < 2) {
      throw new UserError(
        `${data.source}: record ${i} (_id ${JSON.stringify(r.id)}) has supporting_facts naming ${supporting.size} of its paragraphs; ${why} places a question's two supporting paragraphs, so every record needs them (HotpotQA's dev distractor file has them)`,
      );
    }
  });
}

function prepare(
  env: TaskEnv,
  taskName: string,
  placementFor: (index: number) => { placement: Placement; question: number },
  perQuestion: number,
  placing?: string,
): PreparedTask {
  const data = loadHotpot(env.options.data);
  if (placing !== undefined) checkSupportingFacts(data, placing);
  const headers = new HeaderCache(env.tokenizer);
  let pool: ReturnType<typeof buildPool> | undefined; // tokenized on first use: counting samples needs no tokens
  return {
    ...(env.options.data !== undefined
      ? {
          data: {
            path: env.options.data,
            format: 'hotpotqa-dev',
            files: [{ path: data.source, format: 'hotpotqa-dev', sha256: data.sha256, rows: data.records.length }],
          },
        }
      : {}),
    maxSamples: () => data.records.length * perQuestion,
    build(length: LengthTarget, index: number): GeneratedSample {
      const { placement, question } = placementFor(index);
      const record = data.records[question];
      if (!record)
        throw new UserError(
          `${taskName} has ${data.records.length * perQuestion} samples; index ${index} is out of range`,
        );
      pool ??= buildPool(data, env.tokenizer);
      const built = buildHqaContext({
        record,
        pool,
        headers,
        tokenizer: env.tokenizer,
        length,
        seed: env.seed,
        index: question,
        placement,
        version: RULER_HQA_VERSION,
      });
      return {
        question: record.question.trim(),
        answers: [record.answer],
        context: built.context,
        metric: 'sub_em',
        metadata: { ...built.metadata, data_sha256: data.sha256 },
        evidence: built.evidence,
      };
    },
  };
}

/** RULER-HQA as in MemAgent: HotpotQA questions over growing haystacks of other questions' paragraphs. */
export const rulerHqaTask: TaskDefinition = {
  name: 'ruler-hqa',
  version: RULER_HQA_VERSION,
  description: 'RULER-HQA (MemAgent): HotpotQA dev questions with distractor paragraphs, 7K..3.5M tokens; sub-EM',
  metric: 'sub_em',
  defaultSamples: 128,
  defaultLengths: '32k..3.5m',
  acceptsDocCounts: true,
  async prepare(env) {
    const placement = parsePlacement(env.options.placement);
    return prepare(
      env,
      'ruler-hqa',
      (index) => ({ placement, question: index }),
      1,
      placementPositions(placement) ? `--placement ${placement}` : undefined,
    );
  },
};

/** Context-distribution probe: every placement of the two supporting paragraphs for each question. */
export const ctxDistTask: TaskDefinition = {
  name: 'ctx-dist',
  version: RULER_HQA_VERSION,
  description: `Context-distribution probe: RULER-HQA with the two supporting paragraphs at ${PLACEMENTS.join(', ')} (sample i: placement i mod 6, question floor(i/6))`,
  metric: 'sub_em',
  defaultSamples: 128 * PLACEMENTS.length,
  defaultLengths: '32k..512k',
  acceptsDocCounts: true,
  async prepare(env) {
    if (env.options.placement !== undefined)
      throw new UserError('ctx-dist runs every placement; use `bench run ruler-hqa --placement P` for one');
    return prepare(
      env,
      'ctx-dist',
      (index) => ({
        placement: PLACEMENTS[index % PLACEMENTS.length],
        question: Math.floor(index / PLACEMENTS.length),
      }),
      PLACEMENTS.length,
      'ctx-dist',
    );
  },
};
