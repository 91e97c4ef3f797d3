// The run directory of a `bench run` without --out: the same command resumes its own directory; a command that differs
// in its grid, placement, data file (or the file's content), --samples or a method setting gets another one, so none
// is refused for holding another run. The real binary, in a scratch working directory. Needs `npm run build` (dist/).
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';

const cwd = mkdtempSync(join(tmpdir(), 'bench-default-dir-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(cwd, '.bench-cache') };
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function results(args: string[]): Promise<{ dir: string; stdout: string }> {
  const r = await runBench(['run', ...args, '--workers', '1', '--no-progress'], { cwd, env });
  assert.equal(r.code, 0, `bench run ${args.join(' ')}\n${r.stderr}`);
  const m = /^results: (.+)$/m.exec(r.stdout);
  assert.ok(m, r.stdout);
  return { dir: m[1], stdout: r.stdout };
}

test('same command, same directory (it resumes); any difference that changes samples or scores, another one', async () => {
  const base = ['ruler-hqa', '--lengths', '8k', '--samples', '2'];
  const first = await results(base);
  assert.match(first.dir, /^runs\/ruler-hqa__memagent__local__seed42__[0-9a-f]{8}$/);
  const again = await results(base);
  assert.equal(again.dir, first.dir);
  assert.match(again.stdout, /resuming: 2 of 2 samples already finished/);
  // Flag order does not matter.
  assert.equal((await results(['ruler-hqa', '--samples', '2', '--lengths', '8k'])).dir, first.dir);

  const others = [
    ['ruler-hqa', '--lengths', '8k', '--samples', '2', '--placement', '0-20'],
    ['ruler-hqa', '--lengths', '8k,16k', '--samples', '2'],
    ['ruler-hqa', '--lengths', '8k', '--samples', '1'],
    ['ruler-hqa', '--lengths', '8k', '--samples', '2', '--seed', '42', '--chunk-tokens', '4000'],
  ];
  const dirs = new Set([first.dir]);
  for (const args of others) dirs.add((await results(args)).dir);
  assert.equal(dirs.size, others.length + 1, [...dirs].join('\n'));
});

test('a second data file, and the same file changed, each get their own directory', async () => {
  const row = (q: string, a: string) =>
    JSON.stringify({ context: `${a} is the answer to ${q}.`, question: q, answers: [a] });
  const a = join(cwd, 'a.jsonl');
  const b = join(cwd, 'b.jsonl');
  writeFileSync(a, `${row('one', 'Oslo')}\n`);
  writeFileSync(b, `${row('two', 'Bern')}\n`);
  const da = (await results([`file:${a}`])).dir;
  const db = (await results([`file:${b}`])).dir;
  assert.notEqual(da, db);
  assert.match(da, /^runs\/jsonl__memagent__local__seed42__[0-9a-f]{8}$/);
  assert.equal((await results([`file:${a}`])).dir, da);
  writeFileSync(a, `${row('three', 'Rome')}\n`);
  assert.notEqual((await results([`file:${a}`])).dir, da);
  assert.equal(readdirSync(join(cwd, 'runs')).filter((d) => d.startsWith('jsonl__')).length, 3);
});
