import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BIN, startBenchServe } from '../../helpers/bench-serve.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('results do not depend on scheduling order, concurrency, worker threads or the HTTP path', async () => {
  const server = await startBenchServe(['--latency-ms', '3']);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'bench-order-'));
    const base = [
      'run',
      'ruler-hqa,niah_single_2',
      '--lengths',
      '8k,16k',
      '--samples',
      '5',
      '--method',
      'memagent,full-context',
      '--max-context',
      '12000',
      '--no-progress',
      '--no-cache',
    ];
    const variants: Record<string, string[]> = {
      inprocess: ['--workers', '1'],
      workers: ['--workers', '2'],
      http1: ['--model', server.url, '--model-name', 'reference-reader', '--concurrency', '1'],
      http8: [
        '--model',
        server.url,
        '--model-name',
        'reference-reader',
        '--concurrency',
        '8',
        '--requests-per-endpoint',
        '3',
      ],
      gated: ['--model', server.url, '--model-name', 'reference-reader', '--concurrency', '8', '--server-batch', '2'],
    };
    const results: Record<string, Record<string, unknown>> = {};
    for (const [name, extra] of Object.entries(variants)) {
      const r = spawnSync(process.execPath, [BIN, ...base, ...extra, '--out', join(dir, name)], {
        encoding: 'utf8',
        timeout: 180_000,
      });
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      const records = readFileSync(join(dir, name, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(records.length, 40, name);
      results[name] = Object.fromEntries(
        records.map((x) => [
          `${x.id}#${x.method}`,
          [x.status, x.score, x.prediction, x.builtTokens, x.calls, x.usage.completionTokens],
        ]),
      );
    }
    for (const name of Object.keys(variants)) assert.deepEqual(results[name], results.inprocess, name);
  } finally {
    server.child.kill('SIGTERM');
  }
});
