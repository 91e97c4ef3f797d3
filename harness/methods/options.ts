// Options that several methods read. A flag shared by methods is declared once here, so its spec cannot drift.
import { createHash } from 'node:crypto';
import type { MethodOption, MethodSettings } from './registry.js';
import { stringSetting } from './registry.js';
import type { DecodingOverride } from '../protocol/decoding.js';
import { loadTemplates, type FinalVariant, type TemplateSet } from './templates.js';

// No default: unset means each task's own protocol decoding (harness/protocol/decoding.ts: MemAgent's tasks 0.7 / 0.95,
// LongBench greedy), resolved per sample; the identity records the value given, or null for "task default", and the
// run identity's `decoding` records what each task used.
export const TEMPERATURE: MethodOption = {
  flag: 'temperature',
  type: 'number',
  min: 0,
  max: 2,
  help: 'sampling temperature for every task [task default: 0.7 MemAgent/RULER tasks, 0 LongBench]',
};
export const TOP_P: MethodOption = {
  flag: 'top-p',
  type: 'number',
  min: 0,
  max: 1,
  help: 'nucleus sampling for every task [task default: 0.95 MemAgent/RULER tasks, 1 LongBench]',
};
export const FINAL: MethodOption = {
  flag: 'final',
  type: 'choice',
  choices: ['phrase', 'boxed', 'boxed-upstream'],
  default: 'phrase',
  help: 'answer format asked for: "Therefore, the answer is …" (released evaluation), \\boxed{} (RL training), or boxed with upstream\'s literal full-context prompt (\\boxed{{}})',
};
// The path is not identity; the templates' content is (identityExtras below), so an edited file is caught.
export const TEMPLATES: MethodOption = {
  flag: 'templates',
  type: 'path',
  identity: false,
  help: 'JSON overriding prompt templates {update, final, fullContext}',
};
export const MAX_CONTEXT: MethodOption = {
  flag: 'max-context',
  type: 'integer',
  min: 256,
  default: 120000,
  help: 'prompt window; longer prompts are middle-truncated (full-context) or filled with the best passages (rag)',
};

export const GENERATION_OPTIONS: readonly MethodOption[] = [TEMPERATURE, TOP_P, FINAL, TEMPLATES];

/** max_tokens of a one-shot answer when the task sets none: MemAgent's full-context baseline allows 10,000. */
export const ONE_SHOT_ANSWER_TOKENS = 10000;

export function templatesOf(settings: MethodSettings): TemplateSet {
  const final = stringSetting(settings, 'final');
  const variant: FinalVariant = final === 'boxed' || final === 'boxed-upstream' ? final : 'phrase';
  return loadTemplates(stringSetting(settings, 'templates'), variant);
}

/** A fingerprint of the prompt templates in force: a run made with other templates never resumes into this one. */
export function templatesIdentity(settings: MethodSettings): { templates: string } {
  const t = templatesOf(settings);
  const hash = createHash('sha256')
    .update(JSON.stringify([t.update, t.final, t.fullContext]))
    .digest('hex')
    .slice(0, 16);
  return { templates: `${t.name.startsWith('custom:') ? 'custom' : t.name}:${hash}` };
}

/** The user's --temperature / --top-p; an absent field means the task's default (resolved per sample). */
export function samplingOf(settings: MethodSettings): DecodingOverride {
  const out: DecodingOverride = {};
  if (typeof settings.temperature === 'number') out.temperature = settings.temperature;
  if (typeof settings['top-p'] === 'number') out.topP = settings['top-p'];
  return out;
}
