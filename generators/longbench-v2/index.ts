// The task `longbench-v2`: LongBench v2's four-choice questions (THUDM/LongBench pred.py; docs/PROTOCOLS.md §k) from
// the bundled synthetic fixture or `--data data.json`, prompted as pred.py's --v2-prompt mode asks.
import { textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import type { Decoding, GeneratedSample, PreparedTask, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { loadV2, v2FixturePath, parseV2 } from './load.js';
import { readFileSync } from 'node:fs';
import {
  V2_COT_MAX_NEW_TOKENS,
  V2_MAX_NEW_TOKENS,
  V2_MEMAGENT_FINAL,
  v2PromptOf,
  v2PromptParts,
  v2Problem,
} from './prompts.js';

export const LONGBENCH_V2_TASK = 'longbench-v2';
export const LONGBENCH_V2_METRIC = 'longbench_v2_acc';
export const LONGBENCH_V2_VERSION = '1';

/** pred.py: temperature 0.1 on every call (top_p left at the server's default, sent as 1). */
export const LONGBENCH_V2_DECODING: Readonly<Decoding> = Object.freeze({ temperature: 0.1, topP: 1 });

/** pred.py keeps the first 1,000 characters of the context in its output rows. */
export const CONTEXT_HEAD_CHARS = 1000;

function prepare(env: TaskEnv): PreparedTask {
  const data = loadV2(env.options.data);
  const mode = v2PromptOf(env.options['v2-prompt']);
  return {
    ...(env.options.data !== undefined
      ? {
          data: {
            path: env.options.data,
            format: 'longbench-v2',
            files: [{ path: data.file, format: 'longbench-v2', sha256: data.sha256, rows: data.rows.length }],
          },
        }
      : {}),
    // Recorded in the manifest, so a rerun into the same directory with another --v2-prompt is not mixed with it.
    flavour: mode,
    maxSamples: () => data.rows.length,
    build(_length, index): GeneratedSample {
      const row = data.rows[index];
      if (!row)
        throw new UserError(
          `longbench-v2 has ${data.rows.length} items in ${data.file}; index ${index} is out of range`,
        );
      const parts = v2PromptParts(mode, row.context, row);
      return {
        question: v2Problem(row),
        answers: [row.answer],
        context: textContext(parts.context, env.tokenizer),
        evidenceNote:
          "LongBench v2's items do not say where in the document the answer's evidence lies, so no chunk is marked.",
        metric: LONGBENCH_V2_METRIC,
        prompt: {
          fullContext: parts.fullContext,
          maxNewTokens: mode === '0shot_cot' ? V2_COT_MAX_NEW_TOKENS : V2_MAX_NEW_TOKENS,
          answerFormat: 'raw',
          // query_llm: input_ids[:max_len//2] + input_ids[-max_len//2:], decoded in one piece.
          truncation: 'joined',
          questionFill: 'raw',
          decoding: LONGBENCH_V2_DECODING,
          ...(parts.followUp !== undefined
            ? { followUp: { template: parts.followUp, placeholder: '$COT$', maxNewTokens: V2_MAX_NEW_TOKENS } }
            : {}),
          memagentFinal: V2_MEMAGENT_FINAL,
        },
        metadata: {
          _id: row._id,
          domain: row.domain,
          sub_domain: row.sub_domain,
          difficulty: row.difficulty,
          length: row.length,
          question: row.question,
          choice_A: row.choice_A,
          choice_B: row.choice_B,
          choice_C: row.choice_C,
          choice_D: row.choice_D,
          context_head: row.context.slice(0, CONTEXT_HEAD_CHARS),
          v2_prompt: mode,
          data_sha256: data.sha256,
          fixture: data.fixture,
        },
      };
    },
  };
}

export const longbenchV2Task: TaskDefinition = {
  name: LONGBENCH_V2_TASK,
  version: LONGBENCH_V2_VERSION,
  description:
    'LongBench v2: 503 four-choice questions over 8k-2M-word documents, accuracy by difficulty and length; --v2-prompt 0shot|0shot_cot|0shot_rag|0shot_no_context; bundled synthetic fixture or --data data.json',
  metric: LONGBENCH_V2_METRIC,
  defaultSamples: 503,
  defaultLengths: 'native',
  acceptsDocCounts: false,
  nativeLengths: true,
  bundled: () => ({
    rows: parseV2(readFileSync(v2FixturePath(), 'utf8'), v2FixturePath()).length,
    fixture: true,
    source: 'synthetic items built from HotpotQA, not LongBench v2',
  }),
  decoding: LONGBENCH_V2_DECODING,
  async prepare(env) {
    return prepare(env);
  },
};
