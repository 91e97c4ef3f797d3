// --thinking-budget N: thinking gets its own N tokens apart from each call's answer budget, in two requests (the way
// InfMem's call_llm_text does): the first may think for up to N tokens; if it is cut there, its thinking is closed
// with a fixed string and a second request continues it with the call's own max_tokens for the answer. A first
// request that ends by itself within N tokens is the answer. OpenAI-compatible servers have no common field for a
// thinking budget, so no server-side budget is sent.
import type { Model, ModelRequest, ModelResponse, ReportedUsage, Usage } from '../types.js';
import { THINK_CLOSE, THINK_OPEN } from '../protocol/thinking.js';

/** Appended to thinking cut at its budget (InfMem's forced close: `utils/infmem.py`). */
export const FORCED_THINK_CLOSE = '\n\nConsidering the limited time, I must stop thinking now.\n</think>\n\n';

/** The assistant text the second request continues: the first request's thinking, closed. */
export function closedThinking(first: Pick<ModelResponse, 'text' | 'reasoning'>): string {
  const thought = first.reasoning !== undefined ? `${THINK_OPEN}\n${first.reasoning}${first.text}` : first.text;
  return thought.includes(THINK_CLOSE) ? thought : thought.trimEnd() + FORCED_THINK_CLOSE;
}

/** The second request: the first's prompt continued by its closed thinking, with the call's own answer budget. */
export function continuation(request: ModelRequest, thinking: string): ModelRequest {
  if (request.prompt !== undefined) {
    const prompt = request.prompt + thinking;
    return { ...request, prompt, messages: [{ role: 'user', content: prompt }], promptTokensHint: undefined };
  }
  const last = request.messages[request.messages.length - 1];
  // A request that already continues an assistant message (an answer prefix as prefill) continues it further.
  const messages =
    request.continueFinal && last?.role === 'assistant'
      ? [...request.messages.slice(0, -1), { role: 'assistant' as const, content: last.content + thinking }]
      : [...request.messages, { role: 'assistant' as const, content: thinking }];
  return { ...request, messages, continueFinal: true, promptTokensHint: undefined };
}

export function withThinkingBudget<M extends Model>(model: M, budget: number | undefined): M {
  if (budget === undefined) return model;
  return {
    ...model,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      const first = await model.generate({ ...request, params: { ...request.params, maxTokens: budget } }, signal);
      if (first.finishReason !== 'length') return first;
      const thinking = closedThinking(first);
      const second = await model.generate(continuation(request, thinking), signal);
      // The answer text keeps the thinking it continued only when the server returned it inline (a method's rule
      // for `</think>` then applies as to any reply); thinking from reasoning_content stays apart.
      const text = first.reasoning !== undefined ? second.text : thinking + second.text;
      return {
        text,
        usage: summedUsage(first.usage, second.usage),
        latencyMs: first.latencyMs + second.latencyMs,
        finishReason: second.finishReason,
        cached: first.cached && second.cached,
        retries: first.retries + second.retries,
        ...(first.reasoning !== undefined ? { reasoning: first.reasoning } : {}),
        thinkingPasses: 2,
      };
    },
  };
}

/** Both requests' usage; a count either server answer lacked stays flagged for the caller to count (call.ts). */
function summedUsage(a: Usage | ReportedUsage, b: Usage | ReportedUsage): ReportedUsage {
  const ra = a as ReportedUsage;
  const rb = b as ReportedUsage;
  const problems = [...(ra.problems ?? []), ...(rb.problems ?? [])];
  const uncounted = [...new Set([...(ra.uncounted ?? []), ...(rb.uncounted ?? [])])];
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    ...(problems.length > 0 ? { problems, uncounted } : {}),
  };
}
