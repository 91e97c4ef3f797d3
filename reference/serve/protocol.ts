// OpenAI chat- and text-completions wire format for `bench serve`: request validation and response/error bodies (pure).
import type { ChatMessage, GenerationParams, ModelRequest, ModelResponse, Role } from '../../harness/types.js';

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | number | null };
}

export interface HttpError {
  status: number;
  body: ErrorBody;
}

export function errorBody(
  message: string,
  type: string,
  code: string | number | null,
  param: string | null = null,
): ErrorBody {
  return { error: { message, type, param, code } };
}

function badRequest(message: string, param: string | null = null): HttpError {
  return { status: 400, body: errorBody(message, 'invalid_request_error', null, param) };
}

export function modelNotFound(name: string): HttpError {
  return {
    status: 404,
    body: errorBody(`The model \`${name}\` does not exist.`, 'invalid_request_error', 'model_not_found', 'model'),
  };
}

export function invalidApiKey(): HttpError {
  return { status: 401, body: errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key') };
}

/** Same wording as vLLM / OpenAI so clients' "maximum context length" detection works against us too. */
export function contextLengthExceeded(
  maxContext: number,
  promptTokens: number,
  maxTokens: number | undefined,
): HttpError {
  const message =
    maxTokens === undefined
      ? `This model's maximum context length is ${maxContext} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`
      : `This model's maximum context length is ${maxContext} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`;
  return { status: 400, body: errorBody(message, 'invalid_request_error', 'context_length_exceeded', 'messages') };
}

export interface ParsedChatRequest {
  model: string;
  request: ModelRequest;
  /** Whether max_tokens was given (the context check then includes it, as vLLM does). */
  explicitMaxTokens: boolean;
}

const ROLES: readonly Role[] = ['system', 'user', 'assistant'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Message content as a string, or as an array of {type:'text', text} parts (joined). */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const p of content) {
    if (!isRecord(p) || p.type !== 'text' || typeof p.text !== 'string') return undefined;
    parts.push(p.text);
  }
  return parts.join('');
}

function numberField(
  body: Record<string, unknown>,
  name: string,
  lo: number,
  hi: number,
  fallback: number,
): number | HttpError {
  const v = body[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) {
    return badRequest(`'${name}' must be a number between ${lo} and ${hi}`, name);
  }
  return v;
}

/** The checks every completion body gets first: an object naming the model, not streaming, n = 1. */
function parseEnvelope(raw: unknown): { raw: Record<string, unknown>; model: string } | HttpError {
  if (!isRecord(raw)) return badRequest('request body must be a JSON object');
  if (typeof raw.model !== 'string' || raw.model === '') return badRequest("'model' is required", 'model');
  if (raw.stream === true) return badRequest('streaming is not supported by bench serve', 'stream');
  if (raw.n !== undefined && raw.n !== null && raw.n !== 1) return badRequest("only 'n' = 1 is supported", 'n');
  return { raw, model: raw.model };
}

/**
 * Validates a /v1/chat/completions body. `defaultMaxTokens` applies when neither max_tokens nor
 * max_completion_tokens is given. Streaming and n > 1 are refused with a 400.
 */
export function parseChatRequest(body: unknown, defaultMaxTokens: number): ParsedChatRequest | HttpError {
  const envelope = parseEnvelope(body);
  if ('status' in envelope) return envelope;
  const { raw, model } = envelope;
  if (!Array.isArray(raw.messages) || raw.messages.length === 0)
    return badRequest("'messages' must be a non-empty array", 'messages');
  const messages: ChatMessage[] = [];
  for (const [i, m] of raw.messages.entries()) {
    if (!isRecord(m) || !ROLES.includes(m.role as Role)) {
      return badRequest(`messages[${i}].role must be one of ${ROLES.join(', ')}`, 'messages');
    }
    const content = contentText(m.content);
    if (content === undefined) return badRequest(`messages[${i}].content must be a string or text parts`, 'messages');
    messages.push({ role: m.role as Role, content });
  }
  const sampling = parseSampling(raw, defaultMaxTokens);
  if ('status' in sampling) return sampling;
  const continued = parseContinueFinal(raw);
  if (typeof continued !== 'boolean') return continued;
  return {
    model,
    request: { messages, params: sampling.params, ...(continued ? { continueFinal: true } : {}) },
    explicitMaxTokens: sampling.explicitMaxTokens,
  };
}

/** vLLM's continue_final_message / add_generation_prompt pair: continuing the last message instead of opening a
 *  new assistant turn, which needs add_generation_prompt false (vLLM's default is true). */
function parseContinueFinal(raw: Record<string, unknown>): boolean | HttpError {
  for (const name of ['continue_final_message', 'add_generation_prompt'])
    if (raw[name] !== undefined && raw[name] !== null && typeof raw[name] !== 'boolean')
      return badRequest(`'${name}' must be a boolean`, name);
  if (raw.continue_final_message !== true) return false;
  if (raw.add_generation_prompt !== false)
    return badRequest(
      // vLLM's sentence (ChatCompletionRequest.check_generation_prompt), then why a request with only the first gets it.
      'Cannot set both `continue_final_message` and `add_generation_prompt` to True. add_generation_prompt defaults to true: send it as false.',
      'add_generation_prompt',
    );
  return true;
}

/**
 * Validates a /v1/completions body: `prompt` is one string (token-id and batched prompts are refused with a 400).
 * The request carries the prompt as `prompt` and, for the reply model, as one user message.
 */
export function parseTextRequest(body: unknown, defaultMaxTokens: number): ParsedChatRequest | HttpError {
  const envelope = parseEnvelope(body);
  if ('status' in envelope) return envelope;
  const { raw, model } = envelope;
  const prompt = Array.isArray(raw.prompt) && raw.prompt.length === 1 ? raw.prompt[0] : raw.prompt;
  if (typeof prompt !== 'string' || prompt === '')
    return badRequest("'prompt' must be one non-empty string (bench serve takes no token ids or batches)", 'prompt');
  const sampling = parseSampling(raw, defaultMaxTokens);
  if ('status' in sampling) return sampling;
  return {
    model,
    request: { messages: [{ role: 'user', content: prompt }], prompt, params: sampling.params },
    explicitMaxTokens: sampling.explicitMaxTokens,
  };
}

/** max_tokens (or max_completion_tokens), temperature, top_p and stop, as the harness's GenerationParams. */
function parseSampling(
  raw: Record<string, unknown>,
  defaultMaxTokens: number,
): { params: GenerationParams; explicitMaxTokens: boolean } | HttpError {
  const given = raw.max_tokens ?? raw.max_completion_tokens;
  let maxTokens = defaultMaxTokens;
  if (given !== undefined && given !== null) {
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 1) {
      return badRequest("'max_tokens' must be a positive integer", 'max_tokens');
    }
    maxTokens = given;
  }
  const temperature = numberField(raw, 'temperature', 0, 2, 1);
  if (typeof temperature !== 'number') return temperature;
  const topP = numberField(raw, 'top_p', 0, 1, 1);
  if (typeof topP !== 'number') return topP;
  let stop: string[] | undefined;
  if (typeof raw.stop === 'string') stop = [raw.stop];
  else if (Array.isArray(raw.stop)) {
    if (!raw.stop.every((s): s is string => typeof s === 'string'))
      return badRequest("'stop' must be a string or strings", 'stop');
    stop = raw.stop.length > 0 ? raw.stop : undefined;
  } else if (raw.stop !== undefined && raw.stop !== null)
    return badRequest("'stop' must be a string or strings", 'stop');
  return {
    params: { maxTokens, temperature, topP, ...(stop ? { stop } : {}) },
    explicitMaxTokens: given !== undefined && given !== null,
  };
}

/** Cuts text at the earliest stop string (the stop string itself is not returned, as in OpenAI's API). */
export function applyStop(text: string, stop: string[] | undefined): { text: string; stopped: boolean } {
  let cut = -1;
  for (const s of stop ?? []) {
    if (s === '') continue;
    const at = text.indexOf(s);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}

export interface CompletionBody {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: 'assistant'; content: string; reasoning_content?: string };
    finish_reason: string;
    logprobs: null;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export function completionBody(id: string, model: string, created: number, response: ModelResponse): CompletionBody {
  const { promptTokens, completionTokens } = response.usage;
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.text,
          ...(response.reasoning !== undefined ? { reasoning_content: response.reasoning } : {}),
        },
        finish_reason: response.finishReason,
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

export interface TextCompletionBody {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: { index: number; text: string; finish_reason: string; logprobs: null }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export function textCompletionBody(
  id: string,
  model: string,
  created: number,
  response: ModelResponse,
): TextCompletionBody {
  const chat = completionBody(id, model, created, response);
  return {
    id,
    object: 'text_completion',
    created,
    model,
    choices: [{ index: 0, text: response.text, finish_reason: response.finishReason, logprobs: null }],
    usage: chat.usage,
  };
}

export function modelsBody(name: string, maxContext: number | undefined) {
  return {
    object: 'list' as const,
    data: [
      {
        id: name,
        object: 'model' as const,
        created: 0,
        owned_by: 'memagent-bench',
        ...(maxContext ? { max_model_len: maxContext } : {}),
      },
    ],
  };
}
