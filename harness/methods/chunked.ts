// What the chunked methods share (chain-of-agents, refine, map-reduce, infmem, rememr1): the context read in
// consecutive token windows, a checkpoint after every finished call, and the answer taken from the final reply.
import { takeAnswer } from '../protocol/answer.js';
import { pyStrip } from '../protocol/pytext.js';
import type { MethodCheckpoint, MethodContext, MethodOutput, PromptSpec, Sample, Usage } from '../types.js';
import type { FinalVariant } from './templates.js';
import { windowTexts } from './windows.js';

/** The decoded text of each window of `size` context tokens, from window `from` (a resumed sample skips the rest). */
export function* chunkTexts(
  sample: Sample,
  ctx: Pick<MethodContext, 'tokenizer'>,
  size: number,
  from = 0,
): Generator<{ index: number; text: string; tokens: number }> {
  let index = from;
  for (const window of windowTexts(sample.context, size, from, ctx.tokenizer))
    yield { index: index++, text: window.text, tokens: window.tokens };
}

/** Windows of `size` tokens in a context of `tokens` tokens (the last one shorter). */
export function windowCount(tokens: number, size: number): number {
  return Math.ceil(tokens / size);
}

/** Token counts of the windows of a context of `tokens` tokens. */
export function windowSizes(tokens: number, size: number): number[] {
  const n = windowCount(tokens, size);
  return Array.from({ length: n }, (_, i) => (i < n - 1 ? size : tokens - size * (n - 1)));
}

/** The state of a resume checkpoint when `valid` accepts it; otherwise undefined (the sample restarts). */
export function resumeOf<S>(
  resume: MethodCheckpoint | undefined,
  valid: (state: unknown) => state is S,
): { step: number; usage: Usage; state: S } | undefined {
  if (!resume || !valid(resume.state)) return undefined;
  return { step: resume.step, usage: resume.usage, state: resume.state };
}

/**
 * The answer of a method whose final prompt may carry no format instruction (LangChain's chains, Chain-of-Agents'
 * manager): the sample's format ("the answer is", \boxed{}) where the reply has it, else the whole reply, stripped.
 */
export function answerOrWhole(text: string, format: PromptSpec['answerFormat'] | undefined): string | null {
  const taken = takeAnswer(text, format);
  if (taken !== null && taken !== '') return taken;
  const whole = takeAnswer(text, 'raw');
  return whole === null || whole.trim() === '' ? null : whole.trim();
}

/** A chunked method's sample that its last reply answers: the format's answer where it has one, else the whole reply. */
export function answeredOutput(
  text: string,
  format: PromptSpec['answerFormat'] | undefined,
  calls: number,
  usage: Usage,
  extra: MethodOutput['extra'],
): MethodOutput {
  return { prediction: answerOrWhole(text, format), rawOutput: text, status: 'ok', calls, usage, extra };
}

/** The problem as a chunked method's answering call states it: the task's finalQuestion where it has one (BABILong's
 *  instruction before its question), else the question; stripped, as every method's prompts take it. */
export function answerQuestion(sample: Sample): string {
  return pyStrip(sample.prompt?.finalQuestion ?? sample.question);
}

/** Plain-object check for checkpoint states. */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A template text that does not change with --final. */
export const sameForEveryFinal = (text: string): Record<FinalVariant, string> => ({
  phrase: text,
  boxed: text,
  'boxed-upstream': text,
});
