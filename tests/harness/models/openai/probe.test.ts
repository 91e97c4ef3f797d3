import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { startServer } from '../../../../reference/serve/server.js';
import { checkBaseURL, probeEndpoint } from '../../../../harness/models/openai/index.js';
import { UserError } from '../../../../harness/errors.js';
import { echoModel } from '../../../reference/serve/helpers.js';

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Asserts a UserError whose message is exactly one line matching re; returns it for printing. */
async function oneLine(p: Promise<unknown>, re: RegExp): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof UserError, `expected UserError, got ${String(e)}`);
    assert.ok(!e.message.includes('\n'), 'one line');
    assert.match(e.message, re);
    return e.message;
  }
  assert.fail('expected a rejection');
}

test('probe: a good endpoint lists its models and context window', async () => {
  const server = await startServer({ model: echoModel(), modelName: 'qwen', maxContext: 32768 });
  try {
    assert.deepEqual(await probeEndpoint({ baseURL: server.url, modelName: 'qwen' }), {
      models: ['qwen'],
      maxModelLen: 32768,
    });
  } finally {
    await server.close();
  }
});

test('probe: down, wrong model, bad key, missing key, wrong path, silent host: one clear line each', async () => {
  const lines: string[] = [];
  const down = `http://127.0.0.1:${await closedPort()}`;
  lines.push(
    await oneLine(
      probeEndpoint({ baseURL: down, modelName: 'm' }),
      new RegExp(`^cannot reach ${down} \\(connection refused\\): is the server running\\?$`),
    ),
  );

  const server = await startServer({ model: echoModel(), modelName: 'qwen', apiKey: 'k-9f3a' });
  try {
    lines.push(
      await oneLine(
        probeEndpoint({ baseURL: server.url, modelName: 'llama', apiKey: 'k-9f3a' }),
        /^model 'llama' not found at .*; available: qwen \(set --model-name\)$/,
      ),
    );
    lines.push(
      await oneLine(
        probeEndpoint({ baseURL: server.url, modelName: 'qwen', apiKey: 'wrong' }),
        /rejected the API key \(HTTP 401: Incorrect API key provided\.\): set the variable named by --api-key-env/,
      ),
    );
    lines.push(
      await oneLine(
        probeEndpoint({ baseURL: server.url, modelName: 'qwen' }),
        /requires an API key \(HTTP 401: Incorrect API key provided\.\): pass --api-key-env/,
      ),
    );
    const root = server.url.replace(/\/v1$/, '');
    lines.push(
      await oneLine(
        probeEndpoint({ baseURL: root, modelName: 'qwen', apiKey: 'k-9f3a' }),
        /has no \/models route \(HTTP 404\): check the base URL \(it usually ends in \/v1\)/,
      ),
    );
  } finally {
    await server.close();
  }

  const silent = createHttpServer(() => {}); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`;
    lines.push(
      await oneLine(
        probeEndpoint({ baseURL: url, modelName: 'm', timeoutMs: 200 }),
        /did not answer GET \/models within 0.2 s/,
      ),
    );
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
  lines.push(
    await oneLine(
      Promise.resolve().then(() => checkBaseURL('localhost:8000')),
      /must start with http/,
    ),
  );
  lines.push(
    await oneLine(
      Promise.resolve().then(() => checkBaseURL('not a url')),
      /is not a URL/,
    ),
  );
  lines.push(
    await oneLine(
      Promise.resolve().then(() => checkBaseURL('http://u:secret@h/v1')),
      /must not carry credentials/,
    ),
  );
  for (const l of lines) assert.ok(!l.includes('k-9f3a') && !l.includes('secret'), 'no key in messages');
  console.log(lines.map((l) => `  ${l}`).join('\n'));
});
