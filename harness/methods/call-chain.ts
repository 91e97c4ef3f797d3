// One sample's calls, one after another, for the training-free chunked methods (chain-of-agents, refine,
// map-reduce): each call's usage summed and its step counted, the method's state saved as a checkpoint, and the
// sample's ok or failed output.
import type {
  ChatMessage,
  GenerationParams,
  MethodContext,
  MethodOutput,
  PromptSpec,
  Sample,
  Usage,
} from '../types.js';
import { addUsage, callModel, failedOutput } from './call.js';
import { answerOrWhole } from './chunked.js';

export interface CallChain {
  /** Calls made so far (the next call's step). */
  readonly step: number;
  readonly usage: Usage;
  /** Sends one call (the prompt counted over its messages) and returns the reply's text. */
  send(kind: string, messages: ChatMessage[]): Promise<string>;
  /** A checkpoint after the calls so far, with the method's state to resume from. */
  save(state: unknown): void;
  /** The sample's output when the last reply answers: the format's answer where it has one, else the whole reply. */
  ok(text: string, format: PromptSpec['answerFormat'] | undefined, extra: MethodOutput['extra']): MethodOutput;
  failed(err: unknown, extra: MethodOutput['extra']): MethodOutput;
}

export function callChain(
  ctx: MethodContext,
  sample: Sample,
  method: string,
  params: GenerationParams,
  resume: { step: number; usage: Usage } | undefined,
): CallChain {
  let step = resume?.step ?? 0;
  let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
  return {
    get step() {
      return step;
    },
    get usage() {
      return usage;
    },
    async send(kind, messages) {
      const res = await callModel(ctx, sample, method, step, kind, {
        messages,
        params,
        promptTokensHint: messages.reduce((n, m) => n + ctx.tokenizer.count(m.content), 0),
      });
      usage = addUsage(usage, res.usage);
      step++;
      return res.text;
    },
    save(state) {
      ctx.onCheckpoint?.({ step, usage, state });
    },
    ok(text, format, extra) {
      return { prediction: answerOrWhole(text, format), rawOutput: text, status: 'ok', calls: step, usage, extra };
    },
    failed(err, extra) {
      return failedOutput(err, step, usage, extra);
    },
  };
}
