// A tiny misbehaving "OpenAI-compatible" server on 127.0.0.1 (port 0) for endpoint-error tests: GET /v1/models lists
// model `m` unless told otherwise; every other request goes to `chat`, which decides the answer. Counts chat requests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** Answers one chat request; `n` is the 1-based count of chat requests so far, `body` the raw request body. */
export type ChatHandler = (body: string, n: number, res: ServerResponse, req: IncomingMessage) => void;

export interface FakeEndpoint {
  /** Base URL, e.g. http://127.0.0.1:41234/v1. */
  url: string;
  /** Chat requests received (every attempt, retries included). */
  chats(): number;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function send(res: ServerResponse, status: number, contentType: string, text: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}

export const listsM = (res: ServerResponse) =>
  json(res, 200, { object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'test' }] });

/** A well-formed chat completion (usage without prompt tokens, so no token-drift warning). */
export function completion(content = 'Therefore, the answer is yes') {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 5, total_tokens: 5 },
  };
}

export const NGINX_PAGE =
  '<!DOCTYPE html>\n<html>\n<head><title>Welcome to nginx!</title></head>\n<body><h1>Welcome to nginx!</h1></body>\n</html>\n';
export const NOT_FOUND_PAGE =
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n</body>\r\n</html>\r\n';

export async function fakeEndpoint(
  chat: ChatHandler,
  models: (res: ServerResponse) => void = listsM,
): Promise<FakeEndpoint> {
  let chats = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      if (req.method === 'GET' && (req.url ?? '').replace(/\/+$/, '') === '/v1/models') return models(res);
      chat(body, ++chats, res, req);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  return {
    url,
    chats: () => chats,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
