import { createHash } from 'node:crypto';
import { errorMessage, ModelCallError } from '../errors.js';
import { redactedMessage, redactSecrets } from '../redact.js';
import { thinkingOf } from '../protocol/thinking.js';
import type {
  ChatMessage,
  GenerationParams,
  MethodContext,
  MethodOutput,
  ModelRequest,
  ModelResponse,
  ReportedUsage,
  Sample,
  SampleStatus,
  Tokenizer,
  Usage,
} from '../types.js';
import { takeAnswer } from '../protocol/answer.js';
import { pyStrip } from '../protocol/pytext.js';
import { sampleDecoding, type DecodingOverride } from '../protocol/decoding.js';

/** Wall-clock epoch milliseconds with sub-millisecond precision (comparable across worker threads). */
const epochMs = () => performance.timeOrigin + performance.now();
const ms3 = (x: number) => Math.round(x * 1000) / 1000;

/** sha256 of each message's role, NUL, content, NUL (UTF-8), first 32 hex digits. The parts are hashed in turn: one
 *  joined string would be another copy of a prompt of some 20K characters on every call. */
export function promptHash(request: ModelRequest): string {
  const h = createHash('sha256');
  for (const m of request.messages) h.update(m.role).update('\0').update(m.content).update('\0');
  return h.digest('hex').slice(0, 32);
}

/**
 * A response's usage as it is stored and summed: the server's counts where they were whole numbers ≥ 0; a count it
 * left out or sent as anything else is counted with the run's tokenizer (the prompt: the caller's hint, else its
 * messages' text; the answer: its text) and the call is flagged (`flag`, calls.jsonl `usageFlag`).
 */
export function checkedUsage(
  res: Pick<ModelResponse, 'text' | 'usage'>,
  request: ModelRequest,
  tokenizer: Tokenizer,
): { usage: Usage; flag?: string } {
  const reported = res.usage as ReportedUsage;
  const usage: Usage = { promptTokens: reported.promptTokens, completionTokens: reported.completionTokens };
  const uncounted = new Set(reported.uncounted ?? []);
  const problems = [...(reported.problems ?? [])];
  for (const key of ['promptTokens', 'completionTokens'] as const) {
    // A model that does not check its own counts (not the OpenAI client): treated like a server's bad count.
    if (uncounted.has(key) || (Number.isInteger(usage[key]) && usage[key] >= 0)) continue;
    uncounted.add(key);
    problems.push(`${key} ${JSON.stringify(usage[key]) ?? String(usage[key])} is not a count`);
  }
  if (uncounted.size === 0) return { usage };
  if (uncounted.has('promptTokens'))
    usage.promptTokens =
      request.promptTokensHint ?? request.messages.reduce((n, m) => n + tokenizer.count(m.content), 0);
  if (uncounted.has('completionTokens')) usage.completionTokens = tokenizer.count(res.text);
  const said = problems.length ? problems.join('; ') : 'the server sent no usable usage';
  return { usage, flag: `${said}; counted with the ${tokenizer.id} tokenizer` };
}

/**
 * One model call of a method, recorded through ctx.onCall whatever its outcome, except a call that was never sent
 * (attempts 0: the endpoint had already failed fatally and the run is stopping).
 */
export async function callModel(
  ctx: MethodContext,
  sample: Sample,
  method: string,
  step: number,
  kind: string,
  request: ModelRequest,
): Promise<ModelResponse> {
  const started = performance.now();
  const hash = promptHash(request);
  ctx.onPrompt?.(hash, request);
  try {
    const res = await ctx.model.generate(request, ctx.signal);
    const startedAt = ms3(epochMs() - res.latencyMs);
    const { usage, flag } = checkedUsage(res, request, ctx.tokenizer);
    const thinking = thinkingOf(res, ctx.tokenizer);
    ctx.onCall?.({
      sampleId: sample.id,
      method,
      step,
      kind,
      latencyMs: res.latencyMs,
      startedAt,
      usage,
      ...(flag ? { usageFlag: flag } : {}),
      finishReason: res.finishReason,
      status: 'ok',
      retries: res.retries,
      cached: res.cached,
      promptHash: hash,
      ...(thinking.tokens > 0 ? { thinkingTokens: thinking.tokens } : {}),
      ...(thinking.unclosed ? { unclosedThink: true as const } : {}),
      ...(res.reasoning !== undefined ? { reasoning: redactSecrets(res.reasoning) } : {}),
      ...(res.thinkingPasses ? { requests: res.thinkingPasses } : {}),
    });
    // Methods sum what they are given: the checked counts, never the server's raw values.
    return { ...res, usage };
  } catch (err) {
    if ((err as { attempts?: number }).attempts === 0) throw err;
    ctx.onCall?.({
      sampleId: sample.id,
      method,
      step,
      kind,
      latencyMs: Math.round(performance.now() - started),
      startedAt: ms3(performance.timeOrigin + started),
      usage: { promptTokens: 0, completionTokens: 0 },
      status: 'error',
      retries: Math.max(0, ((err as { attempts?: number }).attempts ?? 1) - 1),
      cached: false,
      promptHash: hash,
      error: redactedMessage(err),
    });
    throw err;
  }
}

/** One chat call of a chunked method, its prompt counted over the messages' text (callModel's promptTokensHint). */
export function chatCall(
  ctx: MethodContext,
  sample: Sample,
  method: string,
  step: number,
  kind: string,
  messages: ChatMessage[],
  params: GenerationParams,
): Promise<ModelResponse> {
  const promptTokensHint = messages.reduce((n, m) => n + ctx.tokenizer.count(m.content), 0);
  return callModel(ctx, sample, method, step, kind, { messages, params, promptTokensHint });
}

export function addUsage(a: Usage, b: Usage): Usage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/** How a failed call ends a sample: a context-length rejection is 'truncated', anything else 'error'. */
export function failureStatus(err: unknown): SampleStatus {
  return err instanceof ModelCallError && err.kind === 'context-length' ? 'truncated' : 'error';
}

/** A sample that a failed call ended after `calls` calls: no prediction, the failure's status and message. */
export function failedOutput(err: unknown, calls: number, usage: Usage, extra: MethodOutput['extra']): MethodOutput {
  return { prediction: null, rawOutput: '', status: failureStatus(err), error: errorMessage(err), calls, usage, extra };
}

/**
 * The one answering call of a one-shot method (full-context, rag): sends the built prompt, takes the answer in the
 * sample's format, and ends the sample as ok, truncated or error.
 */
export async function answerOnce(
  ctx: MethodContext,
  sample: Sample,
  method: string,
  built: { prompt: string; promptTokens: number },
  settings: DecodingOverride & { maxNewTokens: number; defaultFormat: 'phrase' | 'boxed' },
  extra: Record<string, unknown>,
): Promise<MethodOutput> {
  try {
    // The run's --temperature / --top-p where given, else the task's protocol decoding (harness/protocol/decoding.ts).
    const { temperature, topP } = sampleDecoding(settings, sample);
    let res = await callModel(ctx, sample, method, 0, 'answer', {
      messages: [{ role: 'user', content: built.prompt }],
      params: { maxTokens: sample.prompt?.maxNewTokens ?? settings.maxNewTokens, temperature, topP },
      promptTokensHint: built.promptTokens,
    });
    let calls = 1;
    let usage = res.usage;
    const followUp = sample.prompt?.followUp;
    if (followUp && res.text !== '') {
      // LongBench v2's CoT: the stripped first reply fills the second prompt (str.replace: every occurrence).
      const first = res.text;
      const prompt = followUp.template.split(followUp.placeholder).join(pyStrip(first));
      res = await callModel(ctx, sample, method, 1, 'answer', {
        messages: [{ role: 'user', content: prompt }],
        params: { maxTokens: followUp.maxNewTokens, temperature, topP },
      });
      calls = 2;
      usage = addUsage(usage, res.usage);
      extra = { ...extra, first_output: first };
    }
    const format = sample.prompt?.answerFormat ?? settings.defaultFormat;
    return {
      prediction: takeAnswer(format === 'raw' ? res.text : res.text.trim(), format),
      rawOutput: res.text,
      status: 'ok',
      calls,
      usage,
      extra,
    };
  } catch (err) {
    return {
      prediction: null,
      rawOutput: '',
      status: failureStatus(err),
      error: redactedMessage(err),
      calls: 1,
      usage: { promptTokens: 0, completionTokens: 0 },
      extra,
    };
  }
}
