// vt, cwe, fwe, qa_1, qa_2: the exact upstream strings in each flavour's prompts, metrics and prompt settings per
// flavour, determinism, RULER's sizing, the qa reuse rule, the suites, and bad input at the task level.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetMissingError, UserError } from '../../../harness/errors.js';
import {
  MEMAGENT_ANSWER_PREFIXES,
  MEMAGENT_INPUTS,
  RULER_ANSWER_PREFIXES,
  RULER_TEMPLATES,
} from '../../../generators/ruler/synthetic-text.js';
import { syntheticTasks } from '../../../generators/ruler/synthetic-tasks.js';
import { loadSquad } from '../../../generators/ruler/qa-data.js';
import { builtinCatalog } from '../../../generators/index.js';
import { onePrompt, prepare, snapshot, tokenizer, tokens } from './synthetic-helpers.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 16);

test('the templates and answer prefixes are upstream’s, byte for byte (length and sha256 prefix)', () => {
  const expect: Array<[string, number, string]> = [
    [RULER_TEMPLATES.vt, 179, 'fcfaf2eab2bc3e35'],
    [RULER_ANSWER_PREFIXES.vt, 137, '4a4e9010ec4141a3'],
    [RULER_TEMPLATES.cwe, 201, '45fff5d17627b65a'],
    [RULER_ANSWER_PREFIXES.cwe, 65, '8ee526599bbc7372'],
    [RULER_TEMPLATES.fwe, 284, 'a0c7b873cf500d6c'],
    [RULER_ANSWER_PREFIXES.fwe, 89, '9a72271c5762c96d'],
    [RULER_TEMPLATES.qa, 284, '18a659c9723f24f1'],
    [RULER_ANSWER_PREFIXES.qa, 8, '255204f061d7e266'],
    [MEMAGENT_INPUTS.vt, 168, '9163798c4a993c5d'],
    [MEMAGENT_ANSWER_PREFIXES.vt, 137, '4652e8514a4f6d88'],
    [MEMAGENT_INPUTS.cwe, 191, '06de5303c1a82a74'],
    [MEMAGENT_INPUTS.fwe, 274, 'b0f9ca964612e3ca'],
    [MEMAGENT_INPUTS.qa, 57, '972a0c672e8124b3'],
  ];
  for (const [s, n, h] of expect) {
    assert.equal([...s].length, n, s);
    assert.equal(sha(s), h, s);
  }
  // MemAgent keeps RULER's old typo in its (stored, never sent) vt answer prefix; RULER fixed it.
  assert.match(MEMAGENT_ANSWER_PREFIXES.vt, / variables are assgined the value /);
  assert.match(RULER_ANSWER_PREFIXES.vt, / variables are assigned the value /);
});

test('each flavour’s samples carry its strings, metric and prompt settings', async () => {
  const metric = { vt: ['memagent_niah', 'string_match_all'], qa_1: ['sub_em', 'string_match_part'] } as const;
  for (const name of ['vt', 'cwe', 'fwe', 'qa_1', 'qa_2']) {
    const kind = name.startsWith('qa') ? 'qa' : (name as 'vt' | 'cwe' | 'fwe');
    const m = await prepare(name, {});
    const r = await prepare(name, { flavour: 'ruler' });
    assert.equal(m.flavour, 'memagent');
    assert.equal(r.flavour, 'ruler');
    const sm = m.build(tokens(8192), 0);
    const sr = r.build(tokens(8192), 0);
    // The question is MemAgent's input in both flavours: no context in it.
    const input = MEMAGENT_INPUTS[kind];
    const [head, tail] = input.split('{query}');
    for (const s of [sm, sr]) {
      assert.ok(s.question.startsWith(head) && s.question.endsWith(tail ?? ''), `${name}: question`);
      assert.equal(s.prompt!.maxNewTokens, { vt: 30, cwe: 120, fwe: 50, qa: 32 }[kind]);
      assert.deepEqual(s.prompt!.decoding, { temperature: 0.7, topP: 0.95 });
    }
    // RULER's template text around the context in both; RULER's example or demonstration only in RULER's flavour.
    const [before, after] = RULER_TEMPLATES[kind].split('{context}');
    const fixed = (t: string) => t.replace(/\{query\}[\s\S]*$/, '');
    assert.ok(sm.prompt!.nativeTemplate!.startsWith(fixed(before)), `${name}: memagent native template`);
    assert.ok(sr.prompt!.nativeTemplate!.includes(fixed(before)), `${name}: ruler template`);
    assert.ok(sr.prompt!.nativeTemplate!.includes(`{context}${fixed(after)}`));
    // RULER's vt example and cwe demonstration are whole prompts of their own, before the task's.
    const times = (t: string) => t.split(fixed(before)).length - 1;
    assert.equal(times(sr.prompt!.nativeTemplate!), kind === 'vt' || kind === 'cwe' ? 2 : 1, `${name}: example first`);
    assert.equal(times(sm.prompt!.nativeTemplate!), 1);
    // Answer prefixes: MemAgent's (with its typo for vt) vs RULER's; only RULER's flavour sends its own prompt.
    assert.equal(sm.prompt!.answerPrefix!.includes('assgined'), kind === 'vt');
    assert.ok(!sr.prompt!.answerPrefix!.includes('assgined'));
    assert.equal(sm.prompt!.fullContext, undefined);
    assert.equal(sm.prompt!.answerFormat, undefined);
    assert.equal(sr.prompt!.fullContext, sr.prompt!.nativeTemplate);
    assert.equal(sr.prompt!.answerFormat, 'raw');
    const [mm, mr] = kind === 'qa' ? metric.qa_1 : metric.vt;
    assert.equal(sm.metric, mm);
    assert.equal(sr.metric, mr);
    assert.equal(m.metric, mm);
    assert.equal(r.metric, mr);
    assert.equal(sm.metadata.flavour, 'memagent');
    assert.equal(sr.metadata.flavour, 'ruler');
  }
});

test('deterministic: same seed byte-identical, another seed or index different', async () => {
  for (const t of syntheticTasks) {
    for (const flavour of ['memagent', 'ruler']) {
      const a = await t.prepare({ tokenizer, seed: 42, options: { flavour } });
      const b = await t.prepare({ tokenizer, seed: 42, options: { flavour } });
      const c = await t.prepare({ tokenizer, seed: 43, options: { flavour } });
      const first = snapshot(a.build(tokens(8192), 3));
      assert.equal(snapshot(b.build(tokens(8192), 3)), first, `${t.name}: fresh prepare`);
      assert.equal(snapshot(a.build(tokens(8192), 3)), first, `${t.name}: built twice`);
      assert.notEqual(snapshot(c.build(tokens(8192), 3)), first, `${t.name}: another seed`);
      assert.notEqual(snapshot(a.build(tokens(8192), 4)), first, `${t.name}: another index`);
    }
  }
});

test('--sizing ruler: one size per length from a probe, then RULER’s steps down; never over budget', async () => {
  for (const [name, step] of [
    ['vt', 10],
    ['cwe', 10],
    ['qa_1', 10],
    ['fwe', Math.floor((16384 - 50) / 32)],
  ] as const) {
    const p = await prepare(name, { sizing: 'ruler', flavour: 'ruler' });
    const exact = await prepare(name, { flavour: 'ruler' });
    for (const i of [0, 1, 2]) {
      const s = p.build(tokens(16384), i);
      const start = s.metadata.ruler_start_units as number;
      assert.equal(s.metadata.sizing, 'ruler');
      assert.equal(s.metadata.ruler_step_units, step, name);
      const e = exact.build(tokens(16384), i);
      assert.ok(tokenizer.count(onePrompt(s)) + (s.metadata.tokens_to_generate as number) <= 16384, name);
      // The sample's size is the start less whole steps, and not above the exact size.
      const units = (m: Record<string, unknown>) =>
        name === 'vt'
          ? (m.haystack_lines as number)
          : name === 'cwe'
            ? (m.words as number) - 9
            : name === 'fwe'
              ? (m.zipf_n as number) - 1
              : (m.num_docs as number);
      assert.equal((start - units(s.metadata)) % step, 0, `${name}: ${start} - ${units(s.metadata)}`);
      assert.ok(units(s.metadata) <= units(e.metadata), name);
    }
  }
});

test('qa_1 reuses its 293 answerable questions: sample i asks question i mod 293', async () => {
  const data = loadSquad();
  assert.equal(data.questions.length, 293);
  assert.equal(data.docs.count, 87);
  const p = await prepare('qa_1');
  assert.equal(p.maxSamples(tokens(8192)), Number.MAX_SAFE_INTEGER);
  const a = p.build(tokens(8192), 5);
  const b = p.build(tokens(8192), 5 + 293);
  assert.equal(a.question, b.question);
  assert.equal(b.metadata.question_index, 5);
  assert.equal(b.metadata.question_pass, 1);
  assert.notEqual(a.context.text(), b.context.text(), 'another draw of documents');
  // Past the pool (87 paragraphs) the documents repeat, as RULER's qa.py does.
  const long = p.build(tokens(32768), 0);
  assert.ok((long.metadata.num_docs as number) > 87 && (long.metadata.pool_repeats as number) > 1);
});

test('suites: ruler is MemAgent’s 11 OOD subsets, ruler-all RULER’s 13; lists keep working', () => {
  const c = builtinCatalog();
  const niah = [
    'niah_single_1',
    'niah_single_2',
    'niah_single_3',
    'niah_multikey_1',
    'niah_multikey_2',
    'niah_multikey_3',
    'niah_multivalue',
    'niah_multiquery',
  ];
  assert.deepEqual(c.expandTaskNames(['ruler']), [...niah, 'vt', 'fwe', 'qa_1']);
  assert.deepEqual(c.expandTaskNames(['ruler-all']), [...niah, 'vt', 'cwe', 'fwe', 'qa_1', 'qa_2']);
  assert.deepEqual(c.expandTaskNames(['vt', 'cwe', 'fwe', 'qa_1', 'qa_2']), ['vt', 'cwe', 'fwe', 'qa_1', 'qa_2']);
  assert.equal(c.task('qa_1').defaultLengths, '8k..256k');
  assert.equal(c.task('vt').defaultLengths, '8k..512k');
});

test('bad input: flavour, --data where none is read, a qa file that is not SQuAD, a length too small', async () => {
  await assert.rejects(
    prepare('vt', { flavour: 'native' }),
    (e: unknown) => e instanceof UserError && /--flavour must be 'memagent' or 'ruler', got 'native'/.test(e.message),
  );
  await assert.rejects(
    prepare('fwe', { data: '/tmp/x.jsonl' }),
    (e: unknown) => e instanceof UserError && /fwe generates its own samples and reads no --data/.test(e.message),
  );
  const dir = mkdtempSync(join(tmpdir(), 'rt-qa-'));
  const array = join(dir, 'hotpot.json');
  writeFileSync(array, '[{"question": "q"}]');
  await assert.rejects(
    prepare('qa_1', { data: array }),
    (e: unknown) => e instanceof UserError && /is not SQuAD: expected the SQuAD v2 dev JSON/.test(e.message),
  );
  await assert.rejects(
    prepare('qa_1', { data: join(dir, 'missing.json') }),
    (e: unknown) => e instanceof UserError && !(e instanceof DatasetMissingError) && /does not exist/.test(e.message),
  );
  const none = join(dir, 'none.json');
  writeFileSync(
    none,
    JSON.stringify({
      version: 'v2.0',
      data: [
        { title: 't', paragraphs: [{ context: 'c', qas: [{ question: 'q', answers: [], is_impossible: true }] }] },
      ],
    }),
  );
  await assert.rejects(prepare('qa_1', { data: none }), /has no answerable questions/);
  const braces = join(dir, 'braces.json');
  writeFileSync(
    braces,
    JSON.stringify({
      data: [
        {
          paragraphs: [
            {
              context: 'Paris is in France.',
              qas: [{ question: 'Where {context} is Paris?', answers: [{ text: 'France' }] }],
            },
          ],
        },
      ],
    }),
  );
  const b = await prepare('qa_1', { data: braces });
  assert.throws(() => b.build(tokens(1024), 0), /contains the placeholder text \{context\}/);
  for (const name of ['vt', 'cwe', 'fwe', 'qa_1', 'qa_2']) {
    const p = await prepare(name, { flavour: 'ruler' });
    assert.throws(
      () => p.build(tokens(100), 0),
      (e: unknown) => e instanceof UserError && /does not fit in 100/.test(e.message),
      name,
    );
    assert.throws(() => p.build({ kind: 'docs', value: 50, label: 'docs:50' }, 0), /takes token lengths/);
  }
});

test('small targets build within budget in both flavours', async () => {
  for (const t of syntheticTasks)
    for (const flavour of ['memagent', 'ruler']) {
      const p = await t.prepare({ tokenizer, seed: 7, options: { flavour } });
      // qa_2's question alone brings 10 paragraphs (over 1K tokens): a smaller target is refused (RULER loops forever).
      for (const L of t.name === 'qa_2' ? [3000, 4096] : [1024, 3000, 4096]) {
        const s = p.build(tokens(L), 0);
        assert.ok(
          tokenizer.count(onePrompt(s)) + (s.metadata.tokens_to_generate as number) <= L,
          `${t.name} ${flavour} ${L}`,
        );
      }
    }
});
