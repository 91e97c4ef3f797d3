// `bench serve`: a local Model behind an OpenAI-compatible HTTP API (node:http): POST /v1/chat/completions and
// POST /v1/completions (the prompt reaches the model as one user message), with seeded fault injection.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { ChatMessage, Model, ModelResponse } from '../../harness/types.js';
import { ModelCallError, errorMessage } from '../../harness/errors.js';
import { asReasoningReply, withoutContinuation, type ReasoningMode } from './reasoning.js';
import { messagesToRead } from '../continue-final.js';
import { FaultPlanner, NO_FAULTS, hashBody, type FaultConfig, type FaultKind } from './faults.js';
import {
  applyStop,
  completionBody,
  contextLengthExceeded,
  errorBody,
  invalidApiKey,
  modelNotFound,
  modelsBody,
  parseChatRequest,
  parseTextRequest,
  textCompletionBody,
  type HttpError,
  type ParsedChatRequest,
} from './protocol.js';

export interface ServerOptions {
  /** The model that answers. */
  model: Model;
  /** Name served at /v1/models and required in requests. Default "reference-reader". */
  modelName?: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** When set, requests must send `Authorization: Bearer <apiKey>`; otherwise 401. */
  apiKey?: string;
  /** Prompt tokens (+ max_tokens when given) above this get a vLLM-style 400 "maximum context length". */
  maxContext?: number;
  faults?: FaultConfig;
  /** max_tokens when a request gives none. Default 4096. */
  defaultMaxTokens?: number;
  /** Largest accepted request body. Default 256 MiB (a 3.5M-token prompt is ~15 MB of JSON). */
  maxBodyBytes?: number;
  /** Optional prompt-token counter: lets the context check reject before generating. */
  countPromptTokens?: (messages: ChatMessage[]) => number;
  /** Optional timing hook (e.g. the simulated GPU of `--simulate`): awaited once the answer is ready, before it is sent. */
  delay?: (promptTokens: number, maxTokens: number, completionTokens: number, signal: AbortSignal) => Promise<void>;
  /** Answer as a reasoning model (reasoning.ts): thinking in reasoning_content, inline, or never closed. */
  reasoning?: ReasoningMode;
  /** Token counter and cutter for the reasoning replies. Default: whitespace-separated words. */
  countTokens?: (text: string) => number;
  cutTokens?: (text: string, tokens: number) => string;
}

export interface ServerStats {
  requests: number;
  completions: number;
  /** Completions answered per route: POST /v1/chat/completions and POST /v1/completions. */
  routes: { chat: number; completions: number };
  faults: Record<FaultKind, number>;
}

export interface RunningServer {
  /** Base URL for OpenAI clients, e.g. "http://127.0.0.1:41234/v1". */
  url: string;
  host: string;
  port: number;
  modelName: string;
  stats(): ServerStats;
  close(): Promise<void>;
}

/** What differs between POST /v1/chat/completions and POST /v1/completions: the request and the answer's shape. */
interface Route {
  name: 'chat' | 'completions';
  parse(raw: unknown, defaultMaxTokens: number): ParsedChatRequest | HttpError;
  reply(id: number, model: string, created: number, response: ModelResponse): unknown;
  /** A 200 body cut short (the 'malformed' fault). */
  malformed: string;
}

const CHAT: Route = {
  name: 'chat',
  parse: parseChatRequest,
  reply: (id, model, created, response) => completionBody(`chatcmpl-${id}`, model, created, response),
  malformed: '{"id":"chatcmpl-malformed","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis',
};

const TEXT: Route = {
  name: 'completions',
  parse: parseTextRequest,
  reply: (id, model, created, response) => textCompletionBody(`cmpl-${id}`, model, created, response),
  malformed: '{"id":"cmpl-malformed","object":"text_completion","choices":[{"index":0,"text":"Par',
};

const countWords = (text: string): number => text.match(/\S+/g)?.length ?? 0;
const firstWords = (text: string, n: number): string => (text.match(/\S+\s*/g) ?? []).slice(0, n).join('');

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, e: HttpError, headers: Record<string, string> = {}): void {
  sendJson(res, e.status, e.body, headers);
}

function keyMatches(header: string | undefined, key: string): boolean {
  const given = Buffer.from(header ?? '');
  const want = Buffer.from(`Bearer ${key}`);
  return given.length === want.length && timingSafeEqual(given, want);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const modelName = options.modelName ?? 'reference-reader';
  const host = options.host ?? '127.0.0.1';
  const faults = options.faults ?? NO_FAULTS;
  const planner = new FaultPlanner(faults);
  const maxBody = options.maxBodyBytes ?? 256 * 1024 * 1024;
  const defaultMaxTokens = options.defaultMaxTokens ?? 4096;
  const { model, maxContext, apiKey } = options;
  const sockets = new Set<Socket>();
  let requests = 0;
  let completions = 0;
  const routes = { chat: 0, completions: 0 };
  let seq = 0;

  async function complete(route: Route, req: IncomingMessage, res: ServerResponse, gone: AbortSignal): Promise<void> {
    const body = await readBody(req, maxBody);
    if (body === 'too-large') {
      sendError(res, {
        status: 413,
        body: errorBody(`request body over ${maxBody} bytes`, 'invalid_request_error', null),
      });
      return;
    }
    const fault = planner.next(hashBody(body));
    switch (fault.kind) {
      case '5xx': {
        const status = [500, 502, 503][fault.attempt % 3];
        sendJson(res, status, errorBody('injected server error', 'server_error', null));
        return;
      }
      case '429': {
        const s = faults.retryAfterS;
        sendJson(res, 429, errorBody('injected rate limit', 'requests', 'rate_limit_exceeded'), {
          'retry-after': String(Math.ceil(s)),
          'retry-after-ms': String(Math.round(s * 1000)),
        });
        return;
      }
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'hang':
        return; // the socket stays open until the client gives up or the server closes
      default:
        break;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch {
      sendError(res, { status: 400, body: errorBody('request body is not valid JSON', 'invalid_request_error', null) });
      return;
    }
    const parsed = route.parse(raw, defaultMaxTokens);
    if ('status' in parsed) return sendError(res, parsed);
    if (parsed.model !== modelName) return sendError(res, modelNotFound(parsed.model));
    const { request, explicitMaxTokens } = parsed;
    const maxTokens = explicitMaxTokens ? request.params.maxTokens : undefined;
    const overContext = (promptTokens: number) =>
      maxContext !== undefined && promptTokens + (maxTokens ?? 1) > maxContext;
    if (options.countPromptTokens) {
      const n = options.countPromptTokens(request.messages);
      if (overContext(n)) return sendError(res, contextLengthExceeded(maxContext!, n, maxTokens));
    }
    let response;
    // A reasoning reply continuing thinking already closed answers only; the reader never sees the thinking.
    const reading = options.reasoning ? withoutContinuation(request) : { request, thought: false };
    // continue_final_message: the model reads the assistant turn it continues as the end of its prompt.
    if (reading.request.continueFinal) {
      const { continueFinal: _, ...rest } = reading.request;
      reading.request = { ...rest, messages: messagesToRead(reading.request) };
    }
    try {
      response = await model.generate(reading.request, gone);
    } catch (err) {
      if (gone.aborted) return;
      if (err instanceof ModelCallError && err.kind === 'context-length') {
        return sendError(res, {
          status: 400,
          body: errorBody(err.message, 'invalid_request_error', 'context_length_exceeded', 'messages'),
        });
      }
      return sendError(res, {
        status: 500,
        body: errorBody(`model failed: ${errorMessage(err)}`, 'server_error', null),
      });
    }
    const { promptTokens } = response.usage;
    if (overContext(promptTokens)) return sendError(res, contextLengthExceeded(maxContext!, promptTokens, maxTokens));
    if (options.reasoning && !reading.thought)
      response = asReasoningReply(
        response,
        options.reasoning,
        route.name,
        request.params.maxTokens,
        options.countTokens ?? countWords,
        options.cutTokens ?? firstWords,
      );
    const stopped = applyStop(response.text, request.params.stop);
    if (stopped.stopped) response = { ...response, text: stopped.text, finishReason: 'stop' };
    await sleep(faults.latencyMs + faults.latencyPerTokenMs * promptTokens, gone);
    if (options.delay && !gone.aborted)
      await options.delay(promptTokens, request.params.maxTokens, response.usage.completionTokens, gone);
    if (gone.aborted) return;
    if (fault.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(route.malformed);
      return;
    }
    completions++;
    routes[route.name]++;
    sendJson(res, 200, route.reply(++seq, modelName, Math.floor(Date.now() / 1000), response));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requests++;
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (apiKey !== undefined && !keyMatches(req.headers.authorization, apiKey)) {
      req.resume();
      return sendError(res, invalidApiKey());
    }
    if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, modelsBody(modelName, maxContext));
    if (req.method === 'POST' && path === '/v1/chat/completions') return complete(CHAT, req, res, gone.signal);
    if (req.method === 'POST' && path === '/v1/completions') return complete(TEXT, req, res, gone.signal);
    req.resume();
    sendError(res, {
      status: 404,
      body: errorBody(`no route ${req.method} ${path}`, 'invalid_request_error', 'not_found'),
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      sendJson(res, 500, errorBody(`internal error: ${errorMessage(err)}`, 'server_error', null));
    });
  });
  // Longer than clients' idle keep-alive, so the server never closes a socket a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    host,
    port,
    modelName,
    stats: () => ({ requests, completions, routes: { ...routes }, faults: { ...planner.counts } }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
