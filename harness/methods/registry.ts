// The method seam: what a method declares so that the CLI, the run identity, the scheduler, --dry-run and the
// simulator all learn about it from one place. A new method is one file exporting a MethodDefinition plus one line
// in harness/methods/index.ts.
import { UserError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import type { Method } from '../types.js';

/** A setting a method reads, and the flag that sets it. */
export interface MethodOption {
  /** Flag without dashes, e.g. 'chunk-tokens'. Several methods may share one flag (same spec). */
  flag: string;
  type: 'integer' | 'number' | 'choice' | 'path';
  /** Shown in `bench run --help`. */
  help: string;
  /** Undefined: unset unless given (the method decides). */
  default?: number | string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  /** Whether the value changes results (part of the run identity). Default true. */
  identity?: boolean;
}

/** Parsed option values by flag; unset options with no default are absent. */
export type MethodSettings = Readonly<Record<string, number | string | undefined>>;

/** One model call of a sample as the planners see it, before any model is called. */
export interface PlannedCall {
  kind: string;
  /** Context tokens this call carries (a MemAgent window, a full-context prompt's context, ...). */
  contextTokens: number;
  /** Upper bound on the call's prompt tokens (template overhead and carried memory included). */
  promptTokensMax: number;
  /** The call's max_tokens. */
  maxNewTokens: number;
}

/** What the planners know of a sample before it is built or while only its size is known. */
export interface PlanInput {
  contextTokens: number;
  /** The task's own answer budget (LongBench per-dataset limits), when it has one. */
  maxNewTokens?: number;
}

export interface MethodDefinition {
  name: string;
  /** One line for `bench run --help`. */
  description: string;
  options: readonly MethodOption[];
  create(settings: MethodSettings): Method;
  /** The calls of one sample, in order; they are sequential, so their count is the sample's chain length. */
  plan(sample: PlanInput, settings: MethodSettings): PlannedCall[];
  /** Identity beyond the option values (e.g. a fingerprint of a templates file's content). */
  identityExtras?(settings: MethodSettings): Record<string, unknown>;
}

export class MethodRegistry {
  private readonly byName = new Map<string, MethodDefinition>();

  constructor(definitions: readonly MethodDefinition[] = []) {
    for (const d of definitions) this.register(d);
  }

  /** Adds a method; a flag shared with another method must have the same spec. */
  register(def: MethodDefinition): void {
    if (this.byName.has(def.name)) throw new Error(`method '${def.name}' is registered twice`);
    for (const opt of def.options) {
      const other = this.options().find((o) => o.flag === opt.flag);
      if (other && JSON.stringify(other) !== JSON.stringify(opt))
        throw new Error(`method '${def.name}': --${opt.flag} is declared differently by another method`);
    }
    this.byName.set(def.name, def);
  }

  unregister(name: string): void {
    this.byName.delete(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): MethodDefinition {
    const def = this.byName.get(name);
    if (!def)
      throw new UserError(
        `unknown method '${name}'${didYouMean(name, this.names())}: use one or more of ${this.names().join(', ')} (comma-separated)`,
      );
    return def;
  }

  /** Every method option, each flag once. */
  options(): MethodOption[] {
    const seen = new Map<string, MethodOption>();
    for (const d of this.byName.values()) for (const o of d.options) if (!seen.has(o.flag)) seen.set(o.flag, o);
    return [...seen.values()];
  }

  /** Which methods read a flag (for help and for error messages). */
  usersOf(flag: string): string[] {
    return [...this.byName.values()].filter((d) => d.options.some((o) => o.flag === flag)).map((d) => d.name);
  }
}

/** The run-identity part of one method: every result-changing option's value (defaults included) plus extras. */
export function methodIdentity(def: MethodDefinition, settings: MethodSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of def.options) if (o.identity !== false) out[o.flag] = settings[o.flag] ?? o.default ?? null;
  return { ...out, ...(def.identityExtras?.(settings) ?? {}) };
}

/** Template and question tokens allowed per call in a plan's prompt bound (MemAgent's update template is ~120). */
export const PLAN_OVERHEAD_TOKENS = 256;

/** Totals over a sample's planned calls: what --dry-run reports and the scheduler orders by. */
export function planTotals(calls: readonly PlannedCall[]): {
  calls: number;
  chain: number;
  promptTokensMax: number;
  completionTokensMax: number;
} {
  let promptTokensMax = 0;
  let completionTokensMax = 0;
  for (const c of calls) {
    promptTokensMax += c.promptTokensMax;
    completionTokensMax += c.maxNewTokens;
  }
  return { calls: calls.length, chain: calls.length, promptTokensMax, completionTokensMax };
}

/** Typed reads of parsed settings (the CLI has validated type and range). */
export function intSetting(settings: MethodSettings, flag: string): number {
  const v = settings[flag];
  if (typeof v !== 'number') throw new Error(`method setting --${flag} is missing`);
  return v;
}

export function optionalIntSetting(settings: MethodSettings, flag: string): number | undefined {
  const v = settings[flag];
  return typeof v === 'number' ? v : undefined;
}

export function stringSetting(settings: MethodSettings, flag: string): string | undefined {
  const v = settings[flag];
  return typeof v === 'string' ? v : undefined;
}
