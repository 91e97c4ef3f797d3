// What the endpoint bad-input tests share: the run command line, the latest records, and the resume check against a
// healthy `bench serve`.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';

/** `bench run ruler-hqa --lengths 8k --samples N --model URL --model-name m --no-progress ...`. */
export function runArgs(url: string, out: string, samples: number, extra: string[] = []): string[] {
  return [
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    String(samples),
    '--model',
    url,
    '--model-name',
    'm',
    '--no-progress',
    '--no-cache',
    '--retry-base-ms',
    '1',
    '--out',
    out,
    ...extra,
  ];
}

/** The latest record per sample in a run directory. */
export function records(dir: string): Array<Record<string, any>> {
  const file = join(dir, 'samples.jsonl');
  if (!existsSync(file)) return [];
  const latest = new Map<string, Record<string, any>>();
  for (const l of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(l);
    latest.set(`${r.id}#${r.method}`, r);
  }
  return [...latest.values()];
}

/** The same command against a healthy server (`healthyUrl`) finishes every sample and exits 0. */
export async function assertResumes(
  healthyUrl: string,
  out: string,
  samples: number,
  extra: string[] = [],
): Promise<void> {
  const r = await runBench(runArgs(healthyUrl, out, samples, extra));
  assert.equal(r.code, 0, `resume exit ${r.code}: ${r.stderr}`);
  assert.equal(r.stderr.trim(), '', r.stderr);
  const recs = records(out);
  assert.equal(recs.length, samples);
  assert.ok(
    recs.every((x) => x.status === 'ok'),
    JSON.stringify(recs.map((x) => x.status)),
  );
}
