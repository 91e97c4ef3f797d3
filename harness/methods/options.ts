// Options that several methods read, and the typed reads of them. A shared flag keeps one type, default and range
// (the registry checks); a method may give it its own help line by spreading the option with another `help`.
import type { DecodingOverride } from '../protocol/decoding.js';
import type { MethodOption, SettingsReader } from './registry.js';
import { resolveTemplates, templatesFingerprint, type FinalVariant, type TemplateSpec } from './templates.js';

// No default: unset means each task's own protocol decoding (TaskDefinition.decoding, listed by `bench tasks`; else
// harness/protocol/decoding.ts's default), resolved per sample; the identity records the value given, or null for "task default", and the
// run identity's `decoding` records what each task used.
export const TEMPERATURE: MethodOption = {
  flag: 'temperature',
  type: 'number',
  min: 0,
  max: 2,
  help: "sampling temperature for every task [task default: its protocol's; `bench tasks` lists it]",
};
export const TOP_P: MethodOption = {
  flag: 'top-p',
  type: 'number',
  min: 0,
  max: 1,
  help: "nucleus sampling for every task [task default: its protocol's; `bench tasks` lists it]",
};
export const FINAL = {
  flag: 'final',
  type: 'choice',
  choices: ['phrase', 'boxed', 'boxed-upstream'] as const,
  default: 'phrase',
  help: 'answer format asked for: "Therefore, the answer is …" (released evaluation), \\boxed{} (RL training), or boxed with upstream\'s literal full-context prompt (\\boxed{{}})',
} satisfies MethodOption & { choices: readonly FinalVariant[] };
// The path is not identity; the templates' content is (templatesIdentity below), so an edited file is caught.
export const TEMPLATES: MethodOption = {
  flag: 'templates',
  type: 'path',
  identity: false,
  help: 'JSON object overriding prompt templates by name (see prompt templates below)',
};
/** The prompt window of the one-shot methods; each gives its own help line. */
export const MAX_CONTEXT: MethodOption = {
  flag: 'max-context',
  type: 'integer',
  min: 256,
  default: 120000,
  help: 'prompt window in tokens',
};

export const GENERATION_OPTIONS: readonly MethodOption[] = [TEMPERATURE, TOP_P, FINAL, TEMPLATES];

/** max_tokens of a one-shot answer when the task sets none: MemAgent's full-context baseline allows 10,000. */
export const ONE_SHOT_ANSWER_TOKENS = 10000;

/** A method's templates in force, and their fingerprint for the run identity. */
export interface TemplatesInForce<N extends string> {
  templates: Record<N, string>;
  /** e.g. "memagent-phrase:<16 hex>"; the identity key `templates` holds it. */
  templatesIdentity: string;
}

/** The texts of `specs` under --final and --templates (the file checked against every registered method's templates). */
export function templatesOf<N extends string>(
  read: SettingsReader,
  specs: readonly TemplateSpec<N>[],
): TemplatesInForce<N> {
  const variant = read.choice(FINAL);
  const file = read.optionalPath(TEMPLATES);
  const overrides = file === undefined ? {} : read.templatesFile(file);
  return {
    templates: resolveTemplates(specs, variant, overrides),
    templatesIdentity: templatesFingerprint(specs, variant, overrides, file !== undefined),
  };
}

/** The user's --temperature / --top-p; an absent field means the task's default (resolved per sample). */
export function samplingOf(read: Pick<SettingsReader, 'optionalNumber'>): DecodingOverride {
  const out: DecodingOverride = {};
  const temperature = read.optionalNumber(TEMPERATURE);
  const topP = read.optionalNumber(TOP_P);
  if (temperature !== undefined) out.temperature = temperature;
  if (topP !== undefined) out.topP = topP;
  return out;
}
