// bench generate: byte-identical output per seed, the cache hit on a second run, the row layouts, the per-length file
// layouts of RULER and MemAgent, atomic writes.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { generateCommand, type GenerateFormat } from '../../../cli/commands/generate.js';
import { builtinCatalog } from '../../../generators/index.js';
import { datasetKeyHash, type DatasetKey } from '../../../harness/cache/dataset-cache.js';
import { niahTasks } from '../../../generators/ruler/index.js';
import { textContext } from '../../../harness/context.js';
import type { LengthTarget, TaskDefinition } from '../../../harness/types.js';
import { UserError } from '../../../harness/errors.js';

const catalog = builtinCatalog();

const tokenizer = loadTokenizer('qwen2.5');
const L8k: LengthTarget = { kind: 'tokens', value: 8192, label: '8k' };
const L16k: LengthTarget = { kind: 'tokens', value: 16384, label: '16k' };
const single2 = niahTasks.find((t) => t.name === 'niah_single_2')!;
const multikey2 = niahTasks.find((t) => t.name === 'niah_multikey_2')!;

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'gen-test-'));
}

function run(
  task: TaskDefinition,
  dir: string,
  cacheDir: string,
  name: string,
  extra: { samples?: number; seed?: number; format?: GenerateFormat; lengths?: LengthTarget[] } = {},
) {
  return generateCommand(
    {
      task,
      lengths: extra.lengths ?? [L8k, L16k],
      samples: extra.samples ?? 3,
      seed: extra.seed ?? 42,
      tokenizer,
      format: extra.format ?? 'native',
      out: join(dir, name),
      cacheDir,
    },
    catalog,
  );
}

function rows(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('same seed → byte-identical output; the second run is served from the cache', async () => {
  const dir = tmp();
  const cache = join(dir, 'cache');
  const first = await run(single2, dir, cache, 'a.jsonl');
  assert.equal(first.cacheHit, false);
  assert.equal(first.rows, 6);
  assert.deepEqual(
    first.lengths.map((l) => l.generated),
    [3, 3],
  );
  const second = await run(single2, dir, cache, 'b.jsonl');
  assert.equal(second.cacheHit, true);
  assert.deepEqual(
    second.lengths.map((l) => [l.fromCache, l.generated]),
    [
      [3, 0],
      [3, 0],
    ],
  );
  const a = readFileSync(join(dir, 'a.jsonl'));
  assert.ok(a.equals(readFileSync(join(dir, 'b.jsonl'))));
  // Regenerating from scratch (fresh cache) gives the same bytes, and another seed different ones.
  const fresh = await run(single2, dir, join(dir, 'cache2'), 'c.jsonl');
  assert.equal(fresh.cacheHit, false);
  assert.ok(a.equals(readFileSync(join(dir, 'c.jsonl'))));
  await run(single2, dir, cache, 'd.jsonl', { seed: 43 });
  assert.ok(!a.equals(readFileSync(join(dir, 'd.jsonl'))));
  // Fewer samples than cached: a prefix of the cached rows, still a hit.
  const two = await run(single2, dir, cache, 'e.jsonl', { samples: 2, lengths: [L8k] });
  assert.equal(two.cacheHit, true);
  assert.equal(
    readFileSync(join(dir, 'e.jsonl'), 'utf8'),
    readFileSync(join(dir, 'a.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n') + '\n',
  );
  rmSync(dir, { recursive: true, force: true });
});

test('more samples than cached: the cached rows are reused and the rest generated', async () => {
  const dir = tmp();
  const cache = join(dir, 'cache');
  await run(multikey2, dir, cache, 'small', { samples: 2, lengths: [L8k], format: 'memagent' });
  const grown = await run(multikey2, dir, cache, 'big', { samples: 4, lengths: [L8k], format: 'memagent' });
  assert.deepEqual(
    grown.lengths.map((l) => [l.fromCache, l.generated, l.cacheHit]),
    [[2, 2, false]],
  );
  await run(multikey2, dir, join(dir, 'other'), 'ref', { samples: 4, lengths: [L8k], format: 'memagent' });
  const file = 'eval_niah_multikey_2_8192.json';
  assert.ok(readFileSync(join(dir, 'big', file)).equals(readFileSync(join(dir, 'ref', file))));
  // Only the larger cache entry is kept.
  const files = readdirSync(join(cache, 'datasets', 'niah_multikey_2'));
  assert.equal(files.length, 1);
  assert.match(files[0], /\.n4\.jsonl$/);
  rmSync(dir, { recursive: true, force: true });
});

test('row layouts: ruler, memagent, native', async () => {
  const dir = tmp();
  const cache = join(dir, 'cache');
  const prepared = await single2.prepare({ tokenizer, seed: 42, options: {} });
  const sample = prepared.build(L8k, 0);
  const context = sample.context.text();

  await run(single2, dir, cache, 'r', { lengths: [L8k], samples: 1, format: 'ruler' });
  const [r] = rows(join(dir, 'r', '8192', 'data', 'niah_single_2', 'validation.jsonl'));
  assert.deepEqual(Object.keys(r), ['index', 'input', 'outputs', 'length', 'answer_prefix']);
  assert.equal(
    r.input,
    sample.prompt!.nativeTemplate!.replace('{context}', () => context),
  );
  assert.deepEqual(r.outputs, sample.answers);
  assert.equal(r.answer_prefix, sample.prompt!.answerPrefix);
  assert.equal(r.length, tokenizer.count((r.input as string) + (r.answer_prefix as string)) + 128);
  assert.ok((r.length as number) <= 8192);

  await run(single2, dir, cache, 'm', { lengths: [L8k], samples: 1, format: 'memagent' });
  const [m] = rows(join(dir, 'm', 'eval_niah_single_2_8192.json'));
  assert.deepEqual(Object.keys(m), ['index', 'input', 'context', 'answers', 'outputs', 'answer_prefix', 'length']);
  assert.equal(m.answer_prefix, sample.prompt!.answerPrefix);
  assert.equal(m.context, context);
  assert.equal(m.input, sample.question);
  assert.ok(!(m.input as string).includes(context.slice(0, 50)));
  assert.deepEqual(m.answers, sample.answers);
  assert.equal(m.length, tokenizer.count(context));

  await run(single2, dir, cache, 'n.jsonl', { lengths: [L8k], samples: 1, format: 'native' });
  const [n] = rows(join(dir, 'n.jsonl'));
  assert.equal(n.id, 'niah_single_2/8k/0', "the runner's id");
  assert.equal(n.context, context);
  assert.deepEqual(n.metadata, JSON.parse(JSON.stringify(sample.metadata)));
  assert.equal(n.scoring, null, 'NIAH needs no metric options');
  rmSync(dir, { recursive: true, force: true });
});

test("--format ruler takes only tasks with RULER's own prompt; the others are refused with nothing written", async () => {
  const dir = tmp();
  const toy: TaskDefinition = {
    name: 'toy',
    version: '1',
    description: 'toy',
    metric: 'sub_em',
    defaultSamples: 2,
    defaultLengths: 'docs:2',
    acceptsDocCounts: true,
    async prepare(env) {
      return {
        maxSamples: () => 2,
        build: (length, index) => ({
          id: `toy/${length.label}/${index}`,
          task: 'toy',
          taskVersion: '1',
          length,
          index,
          question: `Who is ${index}?`,
          answers: [`a${index}`],
          context: textContext(`Document 1:\nPerson ${index} is a${index}.`, env.tokenizer),
          metric: 'sub_em',
          metadata: {},
        }),
      };
    },
  };
  await assert.rejects(
    generateCommand(
      {
        task: toy,
        lengths: [L8k],
        samples: 5,
        seed: 1,
        tokenizer,
        format: 'ruler',
        out: join(dir, 'toy'),
        cacheDir: join(dir, 'c'),
      },
      catalog,
    ),
    (e: unknown) =>
      e instanceof UserError &&
      e.message ===
        "--format ruler writes RULER's own prompt, which only RULER's tasks (niah_*) have; toy has none: use --format memagent or native",
  );
  assert.ok(!existsSync(join(dir, 'toy', '8192', 'data', 'toy', 'validation.jsonl')));
  await assert.rejects(
    generateCommand(
      {
        task: single2,
        lengths: [{ kind: 'docs', value: 2, label: 'docs:2' }],
        samples: 1,
        seed: 1,
        tokenizer,
        format: 'native',
        out: join(dir, 'x.jsonl'),
        cacheDir: join(dir, 'c'),
      },
      catalog,
    ),
    UserError,
  );
  rmSync(dir, { recursive: true, force: true });
});

test('an interrupted run leaves the old output and no cache entry or temporary file', async () => {
  const dir = tmp();
  const cache = join(dir, 'cache');
  const out = join(dir, 'out.jsonl');
  writeFileSync(out, 'old\n');
  const failing: TaskDefinition = {
    ...single2,
    async prepare(env) {
      const inner = await single2.prepare(env);
      return {
        maxSamples: inner.maxSamples,
        build(length, index) {
          if (index === 2) throw new Error('interrupted');
          return inner.build(length, index);
        },
      };
    },
  };
  await assert.rejects(
    generateCommand(
      {
        task: failing,
        lengths: [L8k],
        samples: 4,
        seed: 42,
        tokenizer,
        format: 'native',
        out,
        cacheDir: cache,
      },
      catalog,
    ),
    /interrupted/,
  );
  assert.equal(readFileSync(out, 'utf8'), 'old\n');
  assert.deepEqual(readdirSync(dir).sort(), ['cache', 'out.jsonl']);
  const folder = join(cache, 'datasets', 'niah_single_2');
  assert.ok(!existsSync(folder) || readdirSync(folder).length === 0);
  rmSync(dir, { recursive: true, force: true });
});

test("--format ruler: one validation.jsonl per length in RULER's layout, index restarting at 0 in each", async () => {
  const dir = tmp();
  const out = join(dir, 'synthetic');
  const res = await run(single2, dir, join(dir, 'cache'), 'synthetic', { format: 'ruler' });
  // RULER's scripts/run.sh: <root>/<model>/synthetic/<MAX_SEQ_LENGTH>/data/<task>/validation.jsonl, which
  // pred/call_api.py reads as <data_dir>/<task>/validation.jsonl with --data_dir <...>/<MAX_SEQ_LENGTH>/data.
  const files = [
    join(out, '8192', 'data', 'niah_single_2', 'validation.jsonl'),
    join(out, '16384', 'data', 'niah_single_2', 'validation.jsonl'),
  ];
  assert.deepEqual(
    res.lengths.map((l) => l.path),
    files,
  );
  assert.deepEqual(readdirSync(out).sort(), ['16384', '8192']);
  for (const [k, file] of files.entries()) {
    const got = rows(file);
    assert.deepEqual(
      got.map((r) => r.index),
      [0, 1, 2],
      file,
    );
    for (const r of got) assert.ok((r.length as number) <= [8192, 16384][k]);
  }
  // Same rows as the native file holds per length, in the same order.
  await run(single2, dir, join(dir, 'cache'), 'all.jsonl');
  assert.equal(rows(join(dir, 'all.jsonl')).length, 6);
  rmSync(dir, { recursive: true, force: true });
});

test("--format memagent: one eval_*.json per length, named as MemAgent's ruler_hqa.py / ruler_general.py read them", async () => {
  const dir = tmp();
  const out = join(dir, 'data');
  const res = await run(single2, dir, join(dir, 'cache'), 'data', { format: 'memagent' });
  assert.deepEqual(
    res.lengths.map((l) => l.path),
    [join(out, 'eval_niah_single_2_8192.json'), join(out, 'eval_niah_single_2_16384.json')],
  );
  for (const l of res.lengths)
    assert.deepEqual(
      rows(l.path).map((r) => r.index),
      [0, 1, 2],
    );
  // ruler_hqa.py reads {DATAROOT}/eval_{N}.json for N documents.
  assert.equal(
    catalog.generateLayouts.get('memagent').path(out, 'ruler-hqa', { kind: 'docs', value: 50, label: 'docs:50' }),
    join(out, 'eval_50.json'),
  );
  assert.equal(
    catalog.generateLayouts.get('memagent').path(out, 'ruler-hqa', L8k),
    join(out, 'eval_ruler-hqa_8192.json'),
  );
  assert.equal(
    catalog.generateLayouts.get('ruler').path(out, 'niah_multivalue', L16k),
    join(out, '16384', 'data', 'niah_multivalue', 'validation.jsonl'),
  );
  rmSync(dir, { recursive: true, force: true });
});

test('--format native keeps one file for every length (index repeats per length)', async () => {
  const dir = tmp();
  const res = await run(single2, dir, join(dir, 'cache'), 'n.jsonl');
  assert.deepEqual(
    res.lengths.map((l) => l.path),
    [join(dir, 'n.jsonl'), join(dir, 'n.jsonl')],
  );
  assert.deepEqual(
    rows(join(dir, 'n.jsonl')).map((r) => `${(r.length as { label: string }).label}/${r.index as number}`),
    ['8k/0', '8k/1', '8k/2', '16k/0', '16k/1', '16k/2'],
  );
  rmSync(dir, { recursive: true, force: true });
});

test('per-length formats refuse a file name, a file, and lengths their layout has no place for', async () => {
  const dir = tmp();
  const cache = join(dir, 'cache');
  await assert.rejects(
    run(single2, dir, cache, 'niah.jsonl', { format: 'ruler' }),
    (e: unknown) => e instanceof UserError && /pass --out DIR, not the file name/.test(e.message),
  );
  writeFileSync(join(dir, 'plain'), 'x');
  await assert.rejects(
    run(single2, dir, cache, 'plain', { format: 'memagent' }),
    (e: unknown) => e instanceof UserError && /is a file/.test(e.message),
  );
  assert.throws(
    () => catalog.generateLayouts.get('ruler').path(dir, 'ruler-hqa', { kind: 'docs', value: 50, label: 'docs:50' }),
    /docs:50 is not a token length/,
  );
  assert.throws(
    () =>
      catalog.generateLayouts
        .get('memagent')
        .path(dir, 'longbench/hotpotqa', { kind: 'native', value: 0, label: 'all' }),
    /and longbench\/hotpotqa keeps its documents' own lengths: use --format native$/,
  );
  assert.deepEqual(readdirSync(dir).sort(), ['plain']);
  rmSync(dir, { recursive: true, force: true });
});

test("--format ruler interrupted in its second length: the first length's file is complete, no temporary file is left", async () => {
  const dir = tmp();
  const failing: TaskDefinition = {
    ...single2,
    async prepare(env) {
      const inner = await single2.prepare(env);
      return {
        maxSamples: inner.maxSamples,
        build(length, index) {
          if (length.value === 16384 && index === 1) throw new Error('interrupted');
          return inner.build(length, index);
        },
      };
    },
  };
  const out = join(dir, 'synthetic');
  await assert.rejects(
    generateCommand(
      {
        task: failing,
        lengths: [L8k, L16k],
        samples: 2,
        seed: 42,
        tokenizer,
        format: 'ruler',
        out,
        cacheDir: join(dir, 'cache'),
      },
      catalog,
    ),
    /interrupted/,
  );
  assert.equal(rows(join(out, '8192', 'data', 'niah_single_2', 'validation.jsonl')).length, 2);
  assert.deepEqual(readdirSync(join(out, '16384', 'data', 'niah_single_2')), []);
  rmSync(dir, { recursive: true, force: true });
});

test('the cache key separates every field', () => {
  const base: DatasetKey = {
    task: 't',
    taskVersion: '1',
    length: L8k,
    seed: 1,
    tokenizer: 'qwen2.5',
    generator: '1',
    format: 'ruler',
    options: {},
  };
  const h = datasetKeyHash(base);
  assert.equal(datasetKeyHash({ ...base, options: {} }), h);
  const variants: DatasetKey[] = [
    { ...base, task: 'u' },
    { ...base, taskVersion: '2' },
    { ...base, length: L16k },
    { ...base, length: { kind: 'docs', value: 8192, label: 'docs:8192' } },
    { ...base, seed: 2 },
    { ...base, tokenizer: 'o200k_base' },
    { ...base, generator: '2' },
    { ...base, format: 'memagent' },
    { ...base, options: { placement: '0-20' } },
  ];
  for (const v of variants) assert.notEqual(datasetKeyHash(v), h, JSON.stringify(v));
  assert.equal(
    datasetKeyHash({ ...base, options: { a: '1', b: '2' } }),
    datasetKeyHash({ ...base, options: { b: '2', a: '1' } }),
  );
});
