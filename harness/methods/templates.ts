import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';

// Protocol strings (data): MemAgent's evaluation prompts, BytedTsinghua-SIA/MemAgent@76b7a65
// taskutils/memory_eval/utils/recurrent.py (TEMPLATE, TEMPLATE_FINAL), recurrent/impls/memory.py
// (TEMPLATE_FINAL_BOXED) and utils/openai_api.py (full-context baseline). Note the space after "<problem>".

export const NO_MEMORY = 'No previous memory';

export const MEMAGENT_UPDATE =
  'You are presented with a problem, a section of an article that may contain the answer to the problem, and a previous memory. Please read the provided section carefully and update the memory with the new information that helps to answer the problem. Be sure to retain all relevant details from the previous memory while adding any new, useful information.\n\n<problem> \n{question}\n</problem>\n\n<memory>\n{memory}\n</memory>\n\n<section>\n{chunk}\n</section>\n\nUpdated memory:\n';

export const MEMAGENT_FINAL_PHRASE =
  'You are presented with a problem and a previous memory. Please answer the problem based on the previous memory and format your response as follows "Therefore, the answer is (insert answer here)".\n\n<problem> \n{question}\n</problem>\n\n<memory>\n{memory}\n</memory>\n\nYour answer:\n';

export const MEMAGENT_FINAL_BOXED =
  'You are presented with a problem and a previous memory. Please answer the problem based on the previous memory and put the answer in \\boxed{}.\n\n<problem> \n{question}\n</problem>\n\n<memory>\n{memory}\n</memory>\n\nYour answer:\n';

export const FULL_CONTEXT_PHRASE =
  'Please read the following text and answer the question below.\n\n<text>\n{context}\n</text>\n\n{question}\n\nFormat your response as follows: "Therefore, the answer is (insert answer here)".';

export const FULL_CONTEXT_BOXED =
  'Please read the following text and answer the question below.\n\n<text>\n{context}\n</text>\n\n{question}\n\nPut the answer in \\boxed{}.';

/**
 * The boxed full-context prompt exactly as upstream's utils/boxed.py sends it (docs/PROTOCOLS.md D17): its template
 * is written for str.format (`\\boxed{{}}`) but filled with str.replace('$DOC$', …).replace('$Q$', …), so the
 * doubled braces reach the model. `--final boxed-upstream` selects it.
 */
export const FULL_CONTEXT_BOXED_UPSTREAM =
  'Please read the following text and answer the question below.\n\n<text>\n{context}\n</text>\n\n{question}\n\nPut the answer in \\boxed{{}}.';

export interface TemplateSet {
  update: string;
  final: string;
  fullContext: string;
  /** Short fingerprint recorded in the manifest so runs with edited templates never mix. */
  name: string;
}

/** --final: the answer format asked for. 'boxed-upstream' is 'boxed' with upstream's literal full-context bytes. */
export type FinalVariant = 'phrase' | 'boxed' | 'boxed-upstream';

export function defaultTemplates(variant: FinalVariant): TemplateSet {
  switch (variant) {
    case 'phrase':
      return {
        update: MEMAGENT_UPDATE,
        final: MEMAGENT_FINAL_PHRASE,
        fullContext: FULL_CONTEXT_PHRASE,
        name: 'memagent-phrase',
      };
    case 'boxed':
      return {
        update: MEMAGENT_UPDATE,
        final: MEMAGENT_FINAL_BOXED,
        fullContext: FULL_CONTEXT_BOXED,
        name: 'memagent-boxed',
      };
    case 'boxed-upstream':
      // recurrent_boxed.py fills its final template with str.format, so MemAgent's final prompt has single braces.
      return {
        update: MEMAGENT_UPDATE,
        final: MEMAGENT_FINAL_BOXED,
        fullContext: FULL_CONTEXT_BOXED_UPSTREAM,
        name: 'memagent-boxed-upstream',
      };
  }
}

/** Whether a template asks for a \\boxed{} answer (ours or upstream's literal `\\boxed{{}}`): its reply is read boxed. */
export function asksBoxed(template: string): boolean {
  return template.includes('\\boxed{');
}

const REQUIRED: Record<'update' | 'final' | 'fullContext', string[]> = {
  update: ['{question}', '{memory}', '{chunk}'],
  final: ['{question}', '{memory}'],
  fullContext: ['{context}', '{question}'],
};

/** Templates overridden from a JSON file {"update"?, "final"?, "fullContext"?}; missing keys keep the defaults. */
export function loadTemplates(file: string | undefined, variant: FinalVariant): TemplateSet {
  const base = defaultTemplates(variant);
  if (!file) return base;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(
      `cannot read --templates ${file}: ${(err as Error).message.split('\n')[0]} (expected JSON with keys update, final, fullContext)`,
    );
  }
  const out = { ...base, name: `custom:${file}` };
  for (const key of Object.keys(REQUIRED) as Array<keyof typeof REQUIRED>) {
    const v = parsed[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new UserError(`--templates ${file}: "${key}" must be a string`);
    for (const slot of REQUIRED[key])
      if (!v.includes(slot)) throw new UserError(`--templates ${file}: "${key}" lacks the placeholder ${slot}`);
    out[key] = v;
  }
  for (const key of Object.keys(parsed))
    if (!(key in REQUIRED))
      throw new UserError(`--templates ${file}: unknown key "${key}" (use update, final, fullContext)`);
  return out;
}

/** Fills {name} slots in one pass, so braces inside the filled text are never substituted again. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(question|memory|chunk|context)\}/g, (whole, name: string) =>
    name in values ? values[name] : whole,
  );
}
