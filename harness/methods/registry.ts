// The method seam: what a method declares so that the CLI, the run identity, the scheduler, --dry-run and the
// simulator all learn about it from one place. A new method is one file exporting a MethodDefinition plus one line
// in harness/methods/index.ts.
import { UserError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import type { Method } from '../types.js';
import { readTemplatesFile, type TemplateSpec } from './templates.js';

/** A setting a method reads, and the flag that sets it. */
export interface MethodOption {
  /** Flag without dashes, e.g. 'chunk-tokens'. Several methods may share one flag: the same spec, their own help. */
  flag: string;
  type: 'integer' | 'number' | 'choice' | 'path';
  /** Shown in `bench run --help`, on this method's line for the flag. */
  help: string;
  /** Undefined: unset unless given (the method decides). */
  default?: number | string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  /** Whether the value changes results (part of the run identity). Default true. */
  identity?: boolean;
}

/** Parsed flag values of every method option, by flag (defaults filled in; unset options with no default are absent).
 *  Plain data: the run config carries it to worker threads and the manifest records it. */
export type MethodFlagValues = Readonly<Record<string, number | string | undefined>>;

/** A method's typed reads of its own options, by option (never by flag string); the CLI has checked type and range. */
export interface SettingsReader {
  int(option: MethodOption): number;
  optionalInt(option: MethodOption): number | undefined;
  optionalNumber(option: MethodOption): number | undefined;
  choice<C extends string>(option: MethodOption & { choices: readonly C[] }): C;
  optionalPath(option: MethodOption): string | undefined;
  /** The overrides of a --templates file, checked against every template of every registered method. */
  templatesFile(file: string): Record<string, string>;
}

/** Completion length of a call kind as `bench plan` assumes it: log-normal, rounded and clamped to [min, max]. */
export interface OutputLength {
  median: number;
  sigma: number;
  min: number;
  max: number;
}

/** A kind of model call a method makes, with its cost as `bench plan` estimates it before anything runs. */
export interface CallKind {
  /** As recorded in calls.jsonl and keyed in --output-tokens, e.g. 'update'. */
  name: string;
  /** Expected prompt tokens besides the context and any carried memory: instructions, question, chat template. */
  overheadTokens: number;
  /** The prompt carries the memory: the output of the last call that writes it, or `initialTokens` before any. */
  readsMemory?: { initialTokens: number };
  /** The call's output becomes the memory that later calls carry. */
  writesMemory?: boolean;
  /** Assumed completion length until --output-tokens or --calibrate say otherwise (docs/SIMULATION.md). */
  output: OutputLength;
}

/** One model call of a sample as the planners see it, before any model is called. */
export interface PlannedCall {
  kind: CallKind;
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

/** A method, generic in its typed settings S, which it parses once from the flag values (`settings`). */
export interface MethodDefinition<S = unknown> {
  name: string;
  /** One line for `bench run --help`. */
  description: string;
  options: readonly MethodOption[];
  /** The prompt templates it fills (their names are the keys a --templates file may set). */
  templates: readonly TemplateSpec[];
  /** The kinds of call its plan returns (bench plan's default output-length assumptions list them). */
  calls: readonly CallKind[];
  /** The only place that reads the method's options. */
  settings(read: SettingsReader): S;
  create(settings: S): Method;
  /** The calls of one sample, in order; they are sequential, so their count is the sample's chain length. */
  plan(sample: PlanInput, settings: S): PlannedCall[];
  /** Identity beyond the option values (e.g. a fingerprint of the templates' content). */
  identityExtras?(settings: S): Record<string, unknown>;
}

/** A registered method, driven by the run's flag values; each flag-values object is parsed into settings once. */
export interface RegisteredMethod {
  readonly name: string;
  readonly description: string;
  readonly options: readonly MethodOption[];
  readonly templates: readonly TemplateSpec[];
  readonly calls: readonly CallKind[];
  /** The method's typed settings (MethodDefinition.settings), parsed once per flag-values object. */
  settings(values: MethodFlagValues): unknown;
  create(values: MethodFlagValues): Method;
  plan(sample: PlanInput, values: MethodFlagValues): PlannedCall[];
  /** The run-identity part of the method: every result-changing option's value (defaults included) plus extras. */
  identity(values: MethodFlagValues): Record<string, unknown>;
}

/** The parts of two declarations of one shared flag that must agree (help may differ). */
const specOf = ({ help: _help, ...spec }: MethodOption) => JSON.stringify(spec);

export class MethodRegistry {
  private readonly byName = new Map<string, RegisteredMethod>();

  constructor(definitions: readonly MethodDefinition<unknown>[] = []) {
    for (const d of definitions) this.register(d);
  }

  /** Adds a method; a flag, template or call kind shared with another method must have the same spec. */
  register<S>(def: MethodDefinition<S>): void {
    if (this.byName.has(def.name)) throw new Error(`method '${def.name}' is registered twice`);
    for (const opt of def.options) {
      const other = this.options().find((o) => o.flag === opt.flag);
      if (other && specOf(other) !== specOf(opt))
        throw new Error(
          `method '${def.name}': --${opt.flag} is declared with another type, default or range by another method`,
        );
    }
    for (const t of def.templates) {
      const other = this.templates().find((o) => o.name === t.name);
      if (other && JSON.stringify(other) !== JSON.stringify(t))
        throw new Error(`method '${def.name}': template "${t.name}" is declared differently by another method`);
    }
    for (const k of def.calls) {
      const other = this.callKinds().find((o) => o.name === k.name);
      if (other && JSON.stringify(other) !== JSON.stringify(k))
        throw new Error(`method '${def.name}': call kind '${k.name}' is declared differently by another method`);
    }
    this.byName.set(def.name, this.bind(def));
  }

  unregister(name: string): void {
    this.byName.delete(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): RegisteredMethod {
    const def = this.byName.get(name);
    if (!def)
      throw new UserError(
        `unknown method '${name}'${didYouMean(name, this.names())}: use one or more of ${this.names().join(', ')} (comma-separated)`,
      );
    return def;
  }

  /** Every method option, each flag once (the first method's declaration). */
  options(): MethodOption[] {
    const seen = new Map<string, MethodOption>();
    for (const d of this.byName.values()) for (const o of d.options) if (!seen.has(o.flag)) seen.set(o.flag, o);
    return [...seen.values()];
  }

  /** Which methods read a flag (for help and for error messages). */
  usersOf(flag: string): string[] {
    return [...this.byName.values()].filter((d) => d.options.some((o) => o.flag === flag)).map((d) => d.name);
  }

  /** A flag's help lines: one per distinct text, with the methods that give it. */
  helpOf(flag: string): { help: string; methods: string[] }[] {
    const out: { help: string; methods: string[] }[] = [];
    for (const d of this.byName.values()) {
      const o = d.options.find((x) => x.flag === flag);
      if (!o) continue;
      const line = out.find((l) => l.help === o.help);
      if (line) line.methods.push(d.name);
      else out.push({ help: o.help, methods: [d.name] });
    }
    return out;
  }

  /** Every template a --templates file may set, each name once. */
  templates(): TemplateSpec[] {
    const seen = new Map<string, TemplateSpec>();
    for (const d of this.byName.values()) for (const t of d.templates) if (!seen.has(t.name)) seen.set(t.name, t);
    return [...seen.values()];
  }

  /** Every call kind of every method, each name once, in registration order. */
  callKinds(): CallKind[] {
    const seen = new Map<string, CallKind>();
    for (const d of this.byName.values()) for (const k of d.calls) if (!seen.has(k.name)) seen.set(k.name, k);
    return [...seen.values()];
  }

  private bind<S>(def: MethodDefinition<S>): RegisteredMethod {
    const parsed = new WeakMap<MethodFlagValues, S>();
    const settingsOf = (values: MethodFlagValues): S => {
      let s = parsed.get(values);
      if (s === undefined) parsed.set(values, (s = def.settings(this.reader(def, values))));
      return s;
    };
    return {
      name: def.name,
      description: def.description,
      options: def.options,
      templates: def.templates,
      calls: def.calls,
      settings: settingsOf,
      create: (values) => def.create(settingsOf(values)),
      plan: (sample, values) => def.plan(sample, settingsOf(values)),
      identity: (values) => {
        const out: Record<string, unknown> = {};
        for (const o of def.options) if (o.identity !== false) out[o.flag] = values[o.flag] ?? o.default ?? null;
        return { ...out, ...(def.identityExtras?.(settingsOf(values)) ?? {}) };
      },
    };
  }

  /** Typed reads of the run's flag values outside any one method (the run identity's per-task decoding). */
  readFlags(values: MethodFlagValues): SettingsReader {
    return readerOver(
      (o) => values[o.flag] ?? o.default,
      () => this.templates(),
    );
  }

  /** One method's reads: only of options it declares. */
  private reader(def: MethodDefinition<unknown>, values: MethodFlagValues): SettingsReader {
    const value = (o: MethodOption) => {
      if (!def.options.some((x) => x.flag === o.flag))
        throw new Error(`method '${def.name}' reads --${o.flag}, which it does not declare`);
      return values[o.flag] ?? o.default;
    };
    return readerOver(value, () => this.templates());
  }
}

/** A reader over flag values; `value` gives an option's value (or its default), `known` the registered templates. */
function readerOver(
  value: (o: MethodOption) => number | string | undefined,
  known: () => readonly TemplateSpec[],
): SettingsReader {
  const num = (o: MethodOption) => {
    const v = value(o);
    return typeof v === 'number' ? v : undefined;
  };
  return {
    int(o) {
      const v = num(o);
      if (v === undefined) throw new Error(`method setting --${o.flag} is missing`);
      return v;
    },
    optionalInt: num,
    optionalNumber: num,
    choice<C extends string>(o: MethodOption & { choices: readonly C[] }): C {
      const v = value(o);
      if (typeof v !== 'string' || !o.choices.includes(v as C))
        throw new Error(`method setting --${o.flag} is not one of ${o.choices.join(', ')}`);
      return v as C;
    },
    optionalPath(o) {
      const v = value(o);
      return typeof v === 'string' ? v : undefined;
    },
    templatesFile: (file) => readTemplatesFile(file, known()),
  };
}

/** The run-identity part of one method (RegisteredMethod.identity). */
export function methodIdentity(method: RegisteredMethod, values: MethodFlagValues): Record<string, unknown> {
  return method.identity(values);
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
