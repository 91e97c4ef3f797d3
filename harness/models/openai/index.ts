export {
  createOpenAIModel,
  EndpointCallError,
  type OpenAIModel,
  type OpenAIModelOptions,
  type RetryEvent,
  type ClientStats,
} from './model.js';
export { probeEndpoint, checkBaseURL, type ProbeOptions, type ProbeResult } from './probe.js';
export {
  DEFAULT_TIMEOUT_POLICY,
  DEFAULT_BACKOFF,
  attemptTimeoutMs,
  type TimeoutPolicy,
  type BackoffPolicy,
} from './policy.js';
export { classifyFailure, parseRetryAfter, isContextLengthMessage, isRetryableStatus } from './classify.js';
export { chatWire, chatCompletionBody, readChatCompletion } from './chat-wire.js';
export { textWire, textCompletionBody, readTextCompletion } from './text-wire.js';
export type { WireFormat, WireAnswer, WireSettings } from './wire.js';
