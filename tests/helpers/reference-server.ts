// `bench serve`'s HTTP server over the embedded reference reader, for tests that run the real binary or the real
// openai client against a real endpoint: started before the file's tests, closed after them.
import { afterAll, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { createLocalModel } from '../../reference/local-model.js';
import { startServer, type RunningServer } from '../../reference/serve/server.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';

/** Registers the server's start and close around the calling file's tests; the getter returns it once started. */
export function useReferenceServer(): () => RunningServer {
  const tokenizer = loadTokenizer('qwen2.5');
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({
      model: createLocalModel(tokenizer),
      countPromptTokens: (messages) => messages.reduce((n, m) => n + tokenizer.count(m.content), 0),
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the reference server has not started (call useReferenceServer at file level)');
    return server;
  };
}

/** A JSONL file's objects (samples.jsonl, calls.jsonl). */
export function jsonlRows(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
