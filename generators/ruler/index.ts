// The eight RULER NIAH tasks (docs/PROTOCOLS.md §c.1–c.5, MemAgent's variant §c.8).
import { UserError } from '../../harness/errors.js';
import { MEMAGENT_DECODING } from '../../harness/protocol/decoding.js';
import type { PreparedTask, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { rngFor } from '../../harness/util/rng.js';
import {
  buildNiahSample,
  NIAH_GENERATOR_VERSION,
  NIAH_METRIC,
  NIAH_RULER_METRIC,
  type NiahResources,
} from './build.js';
import { FLAVOURS, type RulerFlavour } from './synthetic-spec.js';
import { essayTokens } from './essay.js';
import { loadWordLists } from './keys.js';
import { distractorCodec, noiseCodec } from './lines.js';
import { SeamCounter } from './sizing.js';
import { NIAH_SPECS, type NiahSpec } from './spec.js';

export const NIAH_TASK_VERSION = `1.${NIAH_GENERATOR_VERSION}`;

const DESCRIPTIONS: Record<string, string> = {
  niah_single_1: 'RULER NIAH: one needle (word key, 7-digit value) in noise sentences',
  niah_single_2: 'RULER NIAH: one needle (word key, 7-digit value) in Paul Graham essays',
  niah_single_3: 'RULER NIAH: one needle (word key, uuid value) in Paul Graham essays',
  niah_multikey_1: 'RULER NIAH: 4 needles in essays, one queried',
  niah_multikey_2: 'RULER NIAH: one needle among distractor needles (word keys, 7-digit values)',
  niah_multikey_3: 'RULER NIAH: one needle among distractor needles (uuid keys and values)',
  niah_multivalue: 'RULER NIAH: one key with 4 values in essays; all 4 asked',
  niah_multiquery: 'RULER NIAH: 4 needles in essays, all 4 keys queried',
};

/** Task option --sizing (docs/PROTOCOLS.md §c.4): 'exact' (default) or 'ruler'. */
export function niahSizing(options: Record<string, string>): 'exact' | 'ruler' {
  const v = options.sizing ?? 'exact';
  if (v !== 'exact' && v !== 'ruler') throw new UserError(`--sizing must be 'exact' or 'ruler', got '${v}'`);
  return v;
}

/** Task option --flavour for NIAH: 'memagent' (default: MemAgent's scoring) or 'ruler' (RULER's). */
export function niahFlavour(options: Record<string, string>): RulerFlavour {
  const v = options.flavour ?? FLAVOURS[0];
  if (!(FLAVOURS as readonly string[]).includes(v))
    throw new UserError(`--flavour must be ${FLAVOURS.map((f) => `'${f}'`).join(' or ')}, got '${v}'`);
  return v as RulerFlavour;
}

export function prepareNiah(spec: NiahSpec, env: TaskEnv): PreparedTask {
  const words = loadWordLists();
  const res: NiahResources = {
    spec,
    tokenizer: env.tokenizer,
    seed: env.seed,
    words,
    seams: new SeamCounter(env.tokenizer),
    sizing: niahSizing(env.options),
    flavour: niahFlavour(env.options),
  };
  if (spec.haystack === 'essay') res.essay = essayTokens(env.tokenizer);
  else if (spec.haystack === 'noise') res.noise = noiseCodec(env.tokenizer);
  else
    res.distractors = distractorCodec(
      env.tokenizer,
      spec.keyKind,
      spec.valueKind,
      words,
      rngFor('niah-codec-check', spec.name),
    );
  return {
    // Synthetic: any number of samples.
    maxSamples: () => Number.MAX_SAFE_INTEGER,
    // The default (MemAgent's variant) records no flavour, as before flavours existed for NIAH.
    ...(res.flavour === 'ruler' ? { flavour: 'ruler', metric: NIAH_RULER_METRIC } : {}),
    build: (length, index) => buildNiahSample(res, length, index),
  };
}

function task(spec: NiahSpec): TaskDefinition {
  return {
    name: spec.name,
    version: NIAH_TASK_VERSION,
    description: DESCRIPTIONS[spec.name],
    metric: NIAH_METRIC,
    defaultSamples: 128,
    // MemAgent's RULER grid (docs/PROTOCOLS.md §c.8).
    defaultLengths: '8k..512k',
    acceptsDocCounts: false,
    // MemAgent's ruler_general.py (docs/PROTOCOLS.md §c.8).
    decoding: MEMAGENT_DECODING,
    flavours: FLAVOURS.map((name) => ({ name, metric: name === 'ruler' ? NIAH_RULER_METRIC : NIAH_METRIC })),
    async prepare(env) {
      return prepareNiah(spec, env);
    },
  };
}

export const niahTasks: TaskDefinition[] = NIAH_SPECS.map(task);
