// The request fingerprint: the full effective request of each kind of call a run makes (per method and call kind):
// the route, the model template, where the answer prefix goes, max_tokens and decoding per task, and the thinking
// budget. The manifest records it (`requests`); `bench compare` and `bench gate` name every field in which two runs
// differ and refuse to compare runs whose requests differ unless --allow-protocol-change is given: each of these
// fields changes scores (RULER's users could not reproduce its tables when template, prefix or decoding differed).
import type { RunConfig } from '../config/run-config.js';
import { methods as registry } from '../methods/index.js';
import type { LengthTarget, PreparedTask, TaskDefinition } from '../types.js';
import { taskDecodings } from './identity.js';

/** One kind of call as it is sent. */
export interface CallFingerprint {
  route: '/chat/completions' | '/completions';
  /** The model template around the prompt: 'server' (the endpoint's chat template, chat API), 'none' (raw text sent
   *  to /completions), or one of RULER's template names (the native method). */
  template: string;
  /** Where an answer prefix goes: 'none' (not sent), or the native method's placement. */
  answerPrefix: string;
  /** max_tokens by task. */
  maxTokens: Record<string, number>;
  /** Sampling by task. */
  decoding: Record<string, { temperature: number; top_p: number }>;
  /** --thinking-budget, or null. */
  thinkingBudget: number | null;
}

/** By "method/call kind", e.g. "memagent/update". */
export type RequestFingerprint = Record<string, CallFingerprint>;

interface FingerprintPlan {
  tasks: readonly TaskDefinition[];
  prepared: readonly PreparedTask[];
  grids: readonly LengthTarget[][];
}

/** The fingerprint of a run: its methods' call kinds, each task's first sample built to read its answer budget. */
export function requestFingerprint(plan: FingerprintPlan, config: RunConfig): RequestFingerprint {
  const decoding = taskDecodings(plan.tasks, config.methodSettings);
  const out: RequestFingerprint = {};
  plan.tasks.forEach((task, t) => {
    const length = plan.grids[t].find((l) => plan.prepared[t].maxSamples(l) > 0);
    if (length === undefined) return;
    const sample = plan.prepared[t].build(length, 0);
    const size = { contextTokens: sample.context.tokenCount, maxNewTokens: sample.prompt?.maxNewTokens };
    for (const method of config.methods) {
      const native = method === 'native';
      const placement = native ? String(config.methodSettings['answer-prefix']) : 'none';
      const raw = (native && placement === 'completion') || config.api === 'completions';
      for (const call of registry.get(method).plan(size, config.methodSettings)) {
        const key = `${method}/${call.kind.name}`;
        const fp = (out[key] ??= {
          route: raw ? '/completions' : '/chat/completions',
          template: native ? String(config.methodSettings['chat-template']) : raw ? 'none' : 'server',
          answerPrefix: placement,
          maxTokens: {},
          decoding: {},
          thinkingBudget: config.thinkingBudget ?? null,
        });
        fp.maxTokens[task.name] = call.maxNewTokens;
        fp.decoding[task.name] = decoding[task.name];
      }
    }
  });
  return out;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Every field in which two fingerprints differ, one phrase each ("memagent/update: template (server → meta-llama3)",
 * "native/answer: max_tokens of vt (30 → 64)"), over the call kinds and tasks both hold (a run may hold others).
 */
export function fingerprintDifferences(a: RequestFingerprint, b: RequestFingerprint): string[] {
  const out: string[] = [];
  for (const key of Object.keys(a).filter((k) => k in b)) {
    const x = a[key];
    const y = b[key];
    for (const field of ['route', 'template', 'answerPrefix', 'thinkingBudget'] as const)
      if (x[field] !== y[field])
        out.push(
          `${key}: ${field === 'answerPrefix' ? 'answer prefix' : field === 'thinkingBudget' ? 'thinking budget' : field} (${show(x[field])} → ${show(y[field])})`,
        );
    for (const task of Object.keys(x.maxTokens).filter((t) => t in y.maxTokens))
      if (x.maxTokens[task] !== y.maxTokens[task])
        out.push(`${key}: max_tokens of ${task} (${x.maxTokens[task]} → ${y.maxTokens[task]})`);
    for (const task of Object.keys(x.decoding).filter((t) => t in y.decoding)) {
      const [p, q] = [x.decoding[task], y.decoding[task]];
      if (p.temperature !== q.temperature || p.top_p !== q.top_p)
        out.push(
          `${key}: decoding of ${task} (temperature ${p.temperature} top_p ${p.top_p} → temperature ${q.temperature} top_p ${q.top_p})`,
        );
    }
  }
  return out;
}

/** A manifest's fingerprint, if it records one that reads as such (directories made before it do not). */
export function fingerprintOf(manifest: unknown): RequestFingerprint | undefined {
  const r = (manifest as { requests?: unknown } | null | undefined)?.requests;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return undefined;
  for (const v of Object.values(r))
    if (typeof v !== 'object' || v === null || typeof (v as CallFingerprint).route !== 'string') return undefined;
  return r as RequestFingerprint;
}
