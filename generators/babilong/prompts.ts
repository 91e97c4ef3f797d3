// BABILong's prompts (babilong/prompts.py): each task's instruction, in-context examples and post-prompt, joined by
// DEFAULT_TEMPLATE with the context and the question. The strings are data, kept verbatim in
// datasets/babilong/prompts.json.
import { readFileSync } from 'node:fs';
import { UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';

export interface TaskPrompt {
  instruction: string;
  examples: string;
  post_prompt: string;
}

interface PromptFile {
  task_template: string;
  user_template: string;
  prompts: Record<string, TaskPrompt>;
}

let file: PromptFile | undefined;

function prompts(): PromptFile {
  file ??= JSON.parse(readFileSync(datasetPath('babilong', 'prompts.json'), 'utf8')) as PromptFile;
  return file;
}

export function taskPrompt(task: string): TaskPrompt {
  const p = prompts().prompts[task];
  if (!p) throw new Error(`no BABILong prompt for ${task}`);
  return p;
}

/** The three switches of run_model_on_babilong.py (--use_instruction, --use_examples, --use_post_prompt). */
export interface PromptSwitches {
  instruction: boolean;
  examples: boolean;
  post_prompt: boolean;
}

export const PROMPT_PARTS = ['instruction', 'examples', 'post_prompt'] as const;
export const DEFAULT_SWITCHES: PromptSwitches = { instruction: true, examples: true, post_prompt: true };

/** `yes/yes/yes` (instruction/examples/post_prompt) as the --babilong-prompt option spells them. */
export function parseSwitches(spec: string | undefined): PromptSwitches {
  if (spec === undefined) return DEFAULT_SWITCHES;
  const parts = spec.split('/');
  if (parts.length !== 3 || parts.some((p) => p !== 'yes' && p !== 'no'))
    throw new UserError(
      `bad --babilong-prompt '${spec}': expected three of yes|no for instruction/examples/post_prompt, e.g. yes/yes/yes (BABILong's default) or no/no/no`,
    );
  return { instruction: parts[0] === 'yes', examples: parts[1] === 'yes', post_prompt: parts[2] === 'yes' };
}

/** The run configuration part of BABILong's result file names, e.g. instruction_yes_examples_yes_post_prompt_yes. */
export function promptConfigName(s: PromptSwitches): string {
  return PROMPT_PARTS.map((k) => `${k}_${s[k] ? 'yes' : 'no'}`).join('_');
}

/** The task's parts with the switched-off ones empty, as run_model_on_babilong.py passes them. */
export function promptParts(task: string, s: PromptSwitches): TaskPrompt {
  const p = taskPrompt(task);
  return {
    instruction: s.instruction ? p.instruction : '',
    examples: s.examples ? p.examples : '',
    post_prompt: s.post_prompt ? p.post_prompt : '',
  };
}

/** TASK_TEMPLATE filled: instruction, examples and post-prompt, blank-line separated (empty parts leave their lines). */
function taskBlock(p: TaskPrompt): string {
  return prompts()
    .task_template.replace('{instruction}', () => p.instruction)
    .replace('{examples}', () => p.examples)
    .replace('{post_prompt}', () => p.post_prompt);
}

/** get_formatted_input's template for one task, with {context} and {question} left for the methods to fill. Python's
 *  str.format and .strip() are applied by fillFormatted. */
export function formattedTemplate(p: TaskPrompt, body: string): string {
  return `${taskBlock(p)}\n\n${body}`;
}

/** What BABILong sends a model: get_formatted_input(context, question, ...) exactly (context stripped, whole stripped). */
export function formattedInput(p: TaskPrompt, context: string, question: string): string {
  const user = prompts()
    .user_template.replace('{context}', () => context.trim())
    .replace('{question}', () => question);
  return `${taskBlock(p)}\n\n${user}`.trim();
}

/** The user template (`<context>\n{context}\n</context>\n\nQuestion: {question}`), as the one-shot methods' layout. */
export function userTemplate(): string {
  return prompts().user_template;
}
