// The window preflight: before the first sample, each method's largest planned call (prompt bound + max_tokens) is
// compared with the endpoint's context window (--max-model-len, else GET /models' max_model_len). A method that does
// not fit stops the run at once with one line naming it, both sizes and the fix, instead of failing sample by sample.
import type { RunConfig } from '../config/run-config.js';
import { UserError } from '../errors.js';
import { methods as registry } from '../methods/index.js';
import type { ManifestWindow } from '../run-dir/manifest.js';
import type { LengthTarget } from '../types.js';
import { sampleIndices, type RunPlan } from './plan.js';

/** Where the window came from, as the line names it. */
export type WindowSource = '--max-model-len' | 'max_model_len from GET /models';

/** One method's largest call over the run's grid. */
export interface LargestCall {
  method: string;
  /** The call's prompt bound in the run's tokenizer (template overhead and carried memory included). */
  promptTokens: number;
  maxTokens: number;
  /** Where it happens. */
  task: string;
  length: string;
}

export interface PreflightResult {
  window: number;
  source: WindowSource;
  /** Every method's largest call. */
  largest: LargestCall[];
  /** The methods whose largest call does not fit. */
  overflowing: LargestCall[];
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** What makes a method's calls smaller, by its own options. */
function fixFor(method: string): string {
  const flags = registry.get(method).options.map((o) => o.flag);
  const fixes: string[] = [];
  if (flags.includes('chunk-tokens')) fixes.push('a smaller --chunk-tokens');
  if (flags.includes('memory-tokens')) fixes.push('--memory-tokens');
  if (flags.includes('max-context')) fixes.push('a smaller --max-context');
  return fixes.length > 0 ? fixes.join(' or ') : 'another method';
}

/** Each method's largest planned call over the grid: the first sample of every (task, length), built (cheap). */
export function largestCalls(plan: RunPlan, config: RunConfig): LargestCall[] {
  const out = new Map<string, LargestCall>();
  plan.tasks.forEach((task, t) => {
    for (const length of plan.grids[t] as LengthTarget[]) {
      const [first] = sampleIndices(task, plan.prepared[t], length, config);
      if (first === undefined) continue;
      const sample = plan.prepared[t].build(length, first);
      const size = { contextTokens: sample.context.tokenCount, maxNewTokens: sample.prompt?.maxNewTokens };
      for (const method of config.methods) {
        for (const call of registry.get(method).plan(size, config.methodSettings)) {
          const best = out.get(method);
          if (!best || call.promptTokensMax + call.maxNewTokens > best.promptTokens + best.maxTokens)
            out.set(method, {
              method,
              promptTokens: call.promptTokensMax,
              maxTokens: call.maxNewTokens,
              task: task.name,
              length: length.label,
            });
        }
      }
    }
  });
  return [...out.values()];
}

/** The preflight against `window`; undefined when the window is unknown (the server does not say, no flag). */
export function checkWindow(plan: RunPlan, config: RunConfig, served: number | undefined): PreflightResult | undefined {
  const window = config.maxModelLen ?? served;
  if (window === undefined) return undefined;
  const source: WindowSource = config.maxModelLen !== undefined ? '--max-model-len' : 'max_model_len from GET /models';
  const largest = largestCalls(plan, config);
  const overflowing = largest.filter((c) => c.promptTokens + c.maxTokens > window);
  return { window, source, largest, overflowing };
}

/** The one line for a run that does not fit (every overflowing method named), or a warning with --allow-truncation. */
export function preflightLine(r: PreflightResult, allowed: boolean): string {
  const parts = r.overflowing.map(
    (c) =>
      `${c.method}'s largest call needs ${fmt(c.promptTokens + c.maxTokens)} tokens (prompt up to ${fmt(c.promptTokens)} + max_tokens ${fmt(c.maxTokens)}, ${c.task} at ${c.length})`,
  );
  const fixes = [...new Set(r.overflowing.map((c) => fixFor(c.method)))].join('; ');
  const head = `${parts.join('; ')}, more than the endpoint's window of ${fmt(r.window)} tokens (${r.source})`;
  if (allowed)
    return `warning: ${head}; running anyway (--allow-truncation): samples whose calls the server rejects end as truncated`;
  return `${head}: use ${fixes}, serve a longer window, or pass --allow-truncation to run anyway`;
}

/** Throws the preflight's UserError (exit 2) when a method does not fit and --allow-truncation is not given. */
export function enforceWindow(r: PreflightResult | undefined, config: RunConfig, warn: (line: string) => void): void {
  if (!r || r.overflowing.length === 0) return;
  if (!config.allowTruncation) throw new UserError(preflightLine(r, false));
  warn(preflightLine(r, true));
}

/** The preflight as the manifest records it. */
export function windowRecord(r: PreflightResult, config: RunConfig): ManifestWindow {
  return { tokens: r.window, source: r.source, allowTruncation: Boolean(config.allowTruncation), largest: r.largest };
}
