import { createHash } from 'node:crypto';
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

/** --final: the answer format asked for. 'boxed-upstream' is 'boxed' with upstream's literal full-context bytes. */
export type FinalVariant = 'phrase' | 'boxed' | 'boxed-upstream';

/**
 * A prompt template a method declares: its name (the key in a --templates file), the slots it fills (each one must
 * appear in an override, and no other {slot} may) and its default text under each --final variant. Several methods
 * may declare the same template (full-context and rag share the one-shot prompt); the registry checks they agree.
 */
export interface TemplateSpec<N extends string = string> {
  name: N;
  slots: readonly string[];
  defaults: Readonly<Record<FinalVariant, string>>;
}

/** MemAgent's memory-update prompt. */
export const UPDATE_TEMPLATE: TemplateSpec<'update'> = {
  name: 'update',
  slots: ['question', 'memory', 'chunk'],
  defaults: { phrase: MEMAGENT_UPDATE, boxed: MEMAGENT_UPDATE, 'boxed-upstream': MEMAGENT_UPDATE },
};

/** MemAgent's answer-from-memory prompt. recurrent_boxed.py fills its boxed final template with str.format, so under
 *  boxed-upstream MemAgent's final prompt has single braces. */
export const FINAL_TEMPLATE: TemplateSpec<'final'> = {
  name: 'final',
  slots: ['question', 'memory'],
  defaults: { phrase: MEMAGENT_FINAL_PHRASE, boxed: MEMAGENT_FINAL_BOXED, 'boxed-upstream': MEMAGENT_FINAL_BOXED },
};

/** The one-shot prompt of full-context and rag (a task's own PromptSpec.fullContext replaces it per sample). */
export const ONE_SHOT_TEMPLATE: TemplateSpec<'fullContext'> = {
  name: 'fullContext',
  slots: ['context', 'question'],
  defaults: { phrase: FULL_CONTEXT_PHRASE, boxed: FULL_CONTEXT_BOXED, 'boxed-upstream': FULL_CONTEXT_BOXED_UPSTREAM },
};

/** The built-in templates' default texts under a --final variant (for tests and for code that builds a method). */
export function defaultTemplates(variant: FinalVariant): Record<'update' | 'final' | 'fullContext', string> {
  return {
    update: UPDATE_TEMPLATE.defaults[variant],
    final: FINAL_TEMPLATE.defaults[variant],
    fullContext: ONE_SHOT_TEMPLATE.defaults[variant],
  };
}

/** Whether a template asks for a \\boxed{} answer (ours or upstream's literal `\\boxed{{}}`): its reply is read boxed. */
export function asksBoxed(template: string): boolean {
  return template.includes('\\boxed{');
}

/** A {slot} reference: a name in single braces. `\\boxed{}` and upstream's literal `{{}}` hold no name, so are text. */
const SLOT = /\{([A-Za-z_][\w-]*)\}/g;

/** The slots a template refers to, each once, in order of first use. */
export function slotsOf(template: string): string[] {
  return [...new Set([...template.matchAll(SLOT)].map((m) => m[1]))];
}

const list = (names: readonly string[]) => names.map((n) => `{${n}}`).join(', ');

/**
 * Reads a --templates file: a JSON object from template name to text, checked against every template the registered
 * methods declare (`known`): an unknown name, a missing slot or an unknown {slot} is refused with one line naming
 * the file, the template and the slot. Returns the overrides only; absent names keep their defaults.
 */
export function readTemplatesFile(file: string, known: readonly TemplateSpec[]): Record<string, string> {
  const names = known.map((t) => t.name).join(', ');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(
      `cannot read --templates ${file}: ${(err as Error).message.split('\n')[0]} (expected JSON with keys ${names})`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UserError(`--templates ${file}: expected a JSON object with keys ${names}`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(parsed)) {
    const spec = known.find((t) => t.name === key);
    if (!spec) throw new UserError(`--templates ${file}: unknown template "${key}" (known templates: ${names})`);
    if (typeof v !== 'string') throw new UserError(`--templates ${file}: "${key}" must be a string`);
    for (const slot of slotsOf(v))
      if (!spec.slots.includes(slot))
        throw new UserError(
          `--templates ${file}: template "${key}" uses unknown slot {${slot}} (its slots: ${list(spec.slots)})`,
        );
    for (const slot of spec.slots)
      if (!v.includes(`{${slot}}`))
        throw new UserError(`--templates ${file}: "${key}" lacks the placeholder {${slot}}`);
    out[key] = v;
  }
  return out;
}

/** The texts in force for the given templates: the file's overrides, else each one's default under the variant. */
export function resolveTemplates<N extends string>(
  specs: readonly TemplateSpec<N>[],
  variant: FinalVariant,
  overrides: Readonly<Record<string, string>>,
): Record<N, string> {
  const out = {} as Record<N, string>;
  for (const t of specs) out[t.name] = overrides[t.name] ?? t.defaults[variant];
  return out;
}

/**
 * The templates every built-in method's identity fingerprints: all three, whichever of them a method uses, in this
 * order. Frozen, so run directories made before each method declared its own templates keep resuming; a method
 * with other templates fingerprints its own.
 */
const FINGERPRINTED_TOGETHER: readonly TemplateSpec[] = [UPDATE_TEMPLATE, FINAL_TEMPLATE, ONE_SHOT_TEMPLATE];

/**
 * A method's templates as one identity value, e.g. "memagent-phrase:<16 hex>" ("custom:…" when --templates was
 * given): a run made with other templates never resumes into this one.
 */
export function templatesFingerprint(
  specs: readonly TemplateSpec[],
  variant: FinalVariant,
  overrides: Readonly<Record<string, string>>,
  fromFile: boolean,
): string {
  const covered = specs.every((t) => FINGERPRINTED_TOGETHER.includes(t)) ? FINGERPRINTED_TOGETHER : specs;
  const texts = covered.map((t) => overrides[t.name] ?? t.defaults[variant]);
  const hash = createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 16);
  return `${fromFile ? 'custom' : `memagent-${variant}`}:${hash}`;
}

/** Fills {name} slots in one pass, so braces inside the filled text are never substituted again; a {name} without
 *  a value is left as it is. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(SLOT, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}
