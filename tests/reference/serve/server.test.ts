import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../reference/serve/faults.js';
import { echoModel, echoReply } from './helpers.js';

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'reference-reader',
  messages: [{ role: 'user', content }],
  max_tokens: 50,
  ...extra,
});

test('serves completions with usage, and lists the model', async () => {
  const server = await startServer({ model: echoModel() });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await (await fetch(`${server.url}/models`)).json();
    assert.deepEqual(
      models.data.map((m: { id: string }) => m.id),
      ['reference-reader'],
    );
    const r = await post(server.url, chat('one two three'));
    assert.equal(r.status, 200);
    const body = JSON.parse(r.text);
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'reference-reader');
    assert.equal(body.choices[0].message.content, echoReply([{ role: 'user', content: 'one two three' }]));
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.deepEqual(body.usage, { prompt_tokens: 3, completion_tokens: 7, total_tokens: 10 });
  } finally {
    await server.close();
  }
});

test('honours max_tokens (length) and stop', async () => {
  const server = await startServer({ model: echoModel() });
  try {
    const cut = JSON.parse((await post(server.url, chat('a b c d e f', { max_tokens: 3 }))).text);
    assert.equal(cut.choices[0].message.content, 'Therefore, the answer');
    assert.equal(cut.choices[0].finish_reason, 'length');
    assert.equal(cut.usage.completion_tokens, 3);
    const stopped = JSON.parse((await post(server.url, chat('x y z', { stop: ['answer'] }))).text);
    assert.equal(stopped.choices[0].message.content, 'Therefore, the ');
    assert.equal(stopped.choices[0].finish_reason, 'stop');
  } finally {
    await server.close();
  }
});

test('rejects bad requests, unknown models, wrong keys and prompts over the context', async () => {
  const server = await startServer({ model: echoModel(), apiKey: 'sekret', maxContext: 10 });
  const auth = { authorization: 'Bearer sekret' };
  try {
    const noKey = await post(server.url, chat('hi'));
    assert.equal(noKey.status, 401);
    assert.equal(JSON.parse(noKey.text).error.code, 'invalid_api_key');
    assert.equal((await post(server.url, chat('hi'), { authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await fetch(`${server.url}/models`)).status, 401);
    assert.equal((await fetch(`${server.url}/models`, { headers: auth })).status, 200);

    const missing = await post(server.url, { ...chat('hi'), model: 'gpt-x' }, auth);
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.text).error.code, 'model_not_found');
    assert.match(JSON.parse(missing.text).error.message, /gpt-x/);

    assert.equal((await post(server.url, '{not json', auth)).status, 400);
    assert.equal((await post(server.url, { model: 'reference-reader', messages: [] }, auth)).status, 400);
    assert.equal((await post(server.url, chat('hi', { temperature: 5 }), auth)).status, 400);
    assert.equal((await post(server.url, chat('hi', { max_tokens: 0 }), auth)).status, 400);

    // 6 prompt tokens + 5 max_tokens > 10
    const long = await post(server.url, chat('a b c d e f', { max_tokens: 5 }), auth);
    assert.equal(long.status, 400);
    assert.match(JSON.parse(long.text).error.message, /maximum context length is 10 tokens/);
    assert.equal((await post(server.url, chat('a b c d e f', { max_tokens: 4 }), auth)).status, 200);
  } finally {
    await server.close();
  }
});

test('injected faults replay identically under a seed and differ across seeds', async () => {
  const run = async (seed: number) => {
    const faults = parseFaultSpec({ fail5xx: 0.2, fail429: 0.2, failMalformed: 0.1, retryAfterS: 3, seed });
    const server = await startServer({ model: echoModel(), faults });
    const seen: string[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        const r = await post(server.url, chat(`prompt ${i % 10}`));
        if (r.status === 429) assert.equal(r.headers.get('retry-after'), '3');
        let kind = String(r.status);
        if (r.status === 200) {
          try {
            JSON.parse(r.text);
          } catch {
            kind = 'malformed';
          }
        }
        seen.push(kind);
      }
    } finally {
      await server.close();
    }
    return seen;
  };
  const a = await run(5);
  assert.deepEqual(await run(5), a);
  assert.notDeepEqual(await run(6), a);
  assert.ok(a.includes('200') && a.includes('429') && a.some((k) => k.startsWith('5')), a.join(','));
});

test('reset and hang faults: the connection drops, or stays silent until the client leaves', async () => {
  const reset = await startServer({ model: echoModel(), faults: parseFaultSpec({ failReset: 1 }) });
  try {
    await assert.rejects(post(reset.url, chat('x')), /fetch failed/);
    assert.equal(reset.stats().faults.reset, 1);
  } finally {
    await reset.close();
  }
  const hang = await startServer({ model: echoModel(), faults: parseFaultSpec({ failHang: 1 }) });
  try {
    const started = fetch(`${hang.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat('x')),
      signal: AbortSignal.timeout(200),
    });
    await assert.rejects(started, (e: Error) => e.name === 'TimeoutError');
    assert.equal(hang.stats().faults.hang, 1);
  } finally {
    await hang.close(); // must not wait for the hung request
  }
});
