// Options that several methods read. A flag shared by methods is declared once here, so its spec cannot drift.
import { createHash } from 'node:crypto';
import type { MethodOption, MethodSettings } from './registry.js';
import { stringSetting } from './registry.js';
import { loadTemplates, type TemplateSet } from './templates.js';

export const TEMPERATURE: MethodOption = { flag: 'temperature', type: 'number', min: 0, max: 2, default: 0.7, help: 'sampling temperature' };
export const TOP_P: MethodOption = { flag: 'top-p', type: 'number', min: 0, max: 1, default: 0.95, help: 'nucleus sampling' };
export const FINAL: MethodOption = {
  flag: 'final', type: 'choice', choices: ['phrase', 'boxed'], default: 'phrase',
  help: 'answer format asked for: "Therefore, the answer is …" (released evaluation) or \\boxed{} (RL training)',
};
// The path is not identity; the templates' content is (identityExtras below), so an edited file is caught.
export const TEMPLATES: MethodOption = { flag: 'templates', type: 'path', identity: false, help: 'JSON overriding prompt templates {update, final, fullContext}' };
export const MAX_CONTEXT: MethodOption = {
  flag: 'max-context', type: 'integer', min: 256, default: 120000, help: 'prompt window; longer prompts are middle-truncated (full-context) or filled with the best passages (rag)',
};

export const GENERATION_OPTIONS: readonly MethodOption[] = [TEMPERATURE, TOP_P, FINAL, TEMPLATES];

/** max_tokens of a one-shot answer when the task sets none: MemAgent's full-context baseline allows 10,000. */
export const ONE_SHOT_ANSWER_TOKENS = 10000;

export function templatesOf(settings: MethodSettings): TemplateSet {
  return loadTemplates(stringSetting(settings, 'templates'), stringSetting(settings, 'final') === 'boxed' ? 'boxed' : 'phrase');
}

/** A fingerprint of the prompt templates in force: a run made with other templates never resumes into this one. */
export function templatesIdentity(settings: MethodSettings): { templates: string } {
  const t = templatesOf(settings);
  const hash = createHash('sha256').update(JSON.stringify([t.update, t.final, t.fullContext])).digest('hex').slice(0, 16);
  return { templates: `${t.name.startsWith('custom:') ? 'custom' : t.name}:${hash}` };
}

export function samplingOf(settings: MethodSettings): { temperature: number; topP: number } {
  return { temperature: settings.temperature as number, topP: settings['top-p'] as number };
}
