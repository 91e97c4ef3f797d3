// Harness overhead per HTTP model call: client CPU (request building, HTTP, parsing, retry bookkeeping) and
// sustained calls/s against `bench serve` with zero latency, for ~6K-token prompts.
// Run: npx tsx bench/overhead.ts   → table on stdout, bench-out/overhead.json.
// The server runs in a child process so its CPU is not counted; the client (this process) is measured with
// process.cpuUsage(). A raw fetch() loop with the same bodies is the floor the SDK client is compared with.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { get_encoding } from 'tiktoken';
import { startServer } from '../reference/serve/server.js';
import { modelFromReply } from '../reference/serve/reply-model.js';
import { createOpenAIModel } from '../harness/models/openai/index.js';
import type { ModelRequest } from '../harness/types.js';

const REPLY = 'Therefore, the answer is ' + Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

async function child(): Promise<void> {
  const server = await startServer({ model: modelFromReply(() => REPLY, { id: 'local:fixed' }), modelName: 'bench' });
  process.send!({ url: server.url });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
}

function buildPrompt(targetTokens: number): { text: string; tokens: number } {
  const words = [
    'memory',
    'agent',
    'reads',
    'the',
    'document',
    'in',
    'chunks',
    'of',
    'five',
    'thousand',
    'tokens',
    'and',
    'overwrites',
    'its',
    'notes',
    'after',
    'each',
    'section,',
    'keeping',
    'facts',
    'about',
    'Paris,',
    '1987',
    'only.',
  ];
  const parts: string[] = [];
  for (let i = 0; parts.length < targetTokens * 0.8; i++) parts.push(words[(i * 7 + (i >> 3)) % words.length]);
  const text = parts.join(' ');
  const enc = get_encoding('o200k_base');
  const tokens = enc.encode(text).length;
  enc.free();
  return { text, tokens };
}

interface Row {
  client: string;
  concurrency: number;
  calls: number;
  wallS: number;
  callsPerS: number;
  cpuMsPerCall: number;
}

async function measure(
  name: string,
  concurrency: number,
  calls: number,
  call: (i: number) => Promise<unknown>,
): Promise<Row> {
  for (let i = 0; i < 20; i++) await call(-1 - i); // warm-up: JIT, keep-alive sockets
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await call(next++);
    }),
  );
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    client: name,
    concurrency,
    calls,
    wallS: round(wallS, 3),
    callsPerS: round(calls / wallS, 1),
    cpuMsPerCall: round((cpu.user + cpu.system) / 1000 / calls, 3),
  };
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  const server: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'] });
  const url = await new Promise<string>((resolve) =>
    server.once('message', (m) => resolve((m as { url: string }).url)),
  );
  const prompt = buildPrompt(6000);
  const req = (i: number): ModelRequest => ({
    // A distinct suffix per call, as in a real run where every chunk differs.
    messages: [{ role: 'user', content: `${prompt.text}\n\nCall ${i}.` }],
    params: { maxTokens: 1024, temperature: 0.7, topP: 0.95 },
  });
  const model = createOpenAIModel({ baseURL: url, modelName: 'bench' });
  const rawCall = async (i: number) => {
    const r = req(i);
    const res = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench', messages: r.messages, max_tokens: 1024, temperature: 0.7, top_p: 0.95 }),
    });
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    if (!body.choices[0].message.content.startsWith('Therefore')) throw new Error('bad reply');
  };
  const sdkCall = async (i: number) => {
    const res = await model.generate(req(i));
    if (!res.text.startsWith('Therefore')) throw new Error('bad reply');
  };
  const calls = Number(process.env.OVERHEAD_CALLS ?? 400);
  const rows: Row[] = [];
  for (const concurrency of [1, 8]) {
    rows.push(await measure('raw fetch', concurrency, calls, rawCall));
    rows.push(await measure('createOpenAIModel', concurrency, calls, sdkCall));
  }
  server.disconnect();

  const header = ['client', 'concurrency', 'calls', 'wall s', 'calls/s', 'client CPU ms/call'];
  const table = [
    header,
    ...rows.map((r) => [
      r.client,
      String(r.concurrency),
      String(r.calls),
      r.wallS.toFixed(3),
      r.callsPerS.toFixed(1),
      r.cpuMsPerCall.toFixed(3),
    ]),
  ];
  const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
  console.log(
    `prompt: ${prompt.tokens} tokens (o200k_base), ${prompt.text.length} chars; reply ${REPLY.split(' ').length} words; server in a child process, zero latency`,
  );
  for (const row of table)
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
  mkdirSync('bench-out', { recursive: true });
  const out = {
    promptTokens: prompt.tokens,
    promptChars: prompt.text.length,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    rows,
  };
  writeFileSync('bench-out/overhead.json', JSON.stringify(out, null, 2) + '\n');
  console.log('wrote bench-out/overhead.json');
}

if (process.argv.includes('--child')) void child();
else await main();
