// A run directory's identity: every setting that changes results. Resuming into a directory made with other
// settings is refused with a line that names each differing setting, so one summary row never mixes two settings.
import type { RunConfig } from '../config/run-config.js';
import { methods as registry } from '../methods/index.js';
import { samplingOf } from '../methods/options.js';
import { resolveDecoding } from '../protocol/decoding.js';
import type { TaskDefinition } from '../types.js';

/** The sampling a task's calls use in this run (the task's protocol default unless --temperature / --top-p override it). */
export interface IdentityDecoding {
  temperature: number;
  top_p: number;
}

export interface RunIdentity {
  seed: number;
  tokenizer: string;
  model: string;
  trial: number;
  /** Task options (--placement, --data). */
  options: Record<string, string>;
  /** Per method: its result-changing settings by flag, plus its extras (`templates`: the templates' fingerprint).
   *  Keys and values stay as they were written, so existing run directories resume. */
  methods: Record<string, Record<string, unknown>>;
  /** Per task: the decoding its calls use (docs/PROTOCOLS.md §a.5, §e.6). Absent in directories written before it. */
  decoding?: Record<string, IdentityDecoding>;
  /** --api completions (absent for chat, the default, so directories made before it resume). */
  api?: 'completions';
  /** --protocol (absent: our default). */
  protocol?: string;
  /** --thinking-budget (absent: none). */
  thinkingBudget?: number;
}

/** The decoding each task uses under a run's method settings. */
export function taskDecodings(
  tasks: readonly Pick<TaskDefinition, 'name' | 'decoding'>[],
  settings: RunConfig['methodSettings'],
): Record<string, IdentityDecoding> {
  const override = samplingOf(registry.readFlags(settings));
  return Object.fromEntries(
    tasks.map((t) => {
      const d = resolveDecoding(override, t.decoding);
      return [t.name, { temperature: d.temperature, top_p: d.topP }];
    }),
  );
}

export function runIdentity(
  config: RunConfig,
  tokenizerId: string,
  modelId: string,
  tasks: readonly Pick<TaskDefinition, 'name' | 'decoding'>[] = [],
): RunIdentity {
  return {
    seed: config.seed,
    tokenizer: tokenizerId,
    model: modelId,
    trial: config.trial,
    options: config.options,
    methods: Object.fromEntries(
      config.methods.map((name) => [name, registry.get(name).identity(config.methodSettings)]),
    ),
    decoding: taskDecodings(tasks, config.methodSettings),
    ...(config.api === 'completions' ? { api: config.api } : {}),
    ...(config.protocol !== undefined ? { protocol: config.protocol } : {}),
    ...(config.thinkingBudget !== undefined ? { thinkingBudget: config.thinkingBudget } : {}),
  };
}

const FLAG_OF: Record<string, string> = {
  seed: '--seed',
  tokenizer: '--tokenizer',
  model: '--model/--model-name',
  trial: '--trial',
  api: '--api',
  protocol: '--protocol',
  thinkingBudget: '--thinking-budget',
};

const show = (v: unknown) => (v === undefined || v === null ? 'unset' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * What differs between the identity stored in a run directory and this invocation's, one phrase per setting, e.g.
 * "--rag-top-k of rag (was 17, now 1)". Methods only one side has are not differences (a run may add a method).
 * An identity from an older layout (no per-method part) is reported as such.
 */
export function identityDifferences(stored: unknown, now: RunIdentity): string[] {
  if (!stored || typeof stored !== 'object' || !('methods' in stored))
    return ['settings recorded by an older bench version'];
  const before = stored as RunIdentity;
  const out: string[] = [];
  for (const key of Object.keys(FLAG_OF) as Array<keyof typeof FLAG_OF & keyof RunIdentity>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(now[key]))
      out.push(`${FLAG_OF[key]} (was ${show(before[key])}, now ${show(now[key])})`);
  }
  const optionKeys = new Set([...Object.keys(before.options ?? {}), ...Object.keys(now.options)]);
  for (const k of optionKeys) {
    if (before.options?.[k] !== now.options[k])
      out.push(`--${k} (was ${show(before.options?.[k])}, now ${show(now.options[k])})`);
  }
  for (const [method, settings] of Object.entries(now.methods)) {
    const old = before.methods?.[method];
    if (!old) continue;
    for (const flag of new Set([...Object.keys(old), ...Object.keys(settings)])) {
      if (JSON.stringify(old[flag]) !== JSON.stringify(settings[flag])) {
        const name = flag === 'templates' ? '--templates/--final (prompt templates)' : `--${flag}`;
        out.push(`${name} of ${method} (was ${show(old[flag])}, now ${show(settings[flag])})`);
      }
    }
  }
  // A task only one side ran is no difference (a run may add tasks); a directory without `decoding` predates it.
  for (const [task, d] of Object.entries(now.decoding ?? {})) {
    const old = before.decoding?.[task];
    if (old && JSON.stringify(old) !== JSON.stringify(d)) {
      out.push(
        `decoding of ${task} (was temperature ${old.temperature} top_p ${old.top_p}, now temperature ${d.temperature} top_p ${d.top_p})`,
      );
    }
  }
  return out;
}
