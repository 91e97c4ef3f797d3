// NIAH differences from RULER and MemAgent that are closed in the generator (docs/PROTOCOLS.md §c, D13, D14):
// the question is MemAgent's own `input`, the essays are RULER's repository files concatenated without a separator,
// and --sizing ruler sizes as RULER's niah.py does.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'vitest';
import { parseCli } from '../../../cli/parse.js';
import { datasetPath } from '../../../harness/paths.js';
import { UserError } from '../../../harness/errors.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { LengthTarget, GeneratedSample } from '../../../harness/types.js';
import { loadEssayText } from '../../../generators/ruler/essay.js';
import { niahSizing, niahTasks } from '../../../generators/ruler/index.js';
import { fitUnits, rulerStep } from '../../../generators/ruler/sizing.js';

const tokenizer = loadTokenizer('qwen2.5');
const L8K: LengthTarget = { kind: 'tokens', value: 8192, label: '8k' };
const task = (name: string) => niahTasks.find((t) => t.name === name)!;

// MemAgent taskutils/memory_data/synthetic/constants.py TASKS['niah']['template'], and its niah.py: the RULER
// replacements when num_needle_q * num_needle_v == 1, then template.format(type_needle_v=..., query=...) (no context).
const MEMAGENT_TEMPLATE =
  'Some special magic {type_needle_v} are hidden within the following text. Make sure to memorize it. What are all the special magic {type_needle_v} for {query} mentioned in the provided text?';

function memagentInput(typeNeedleV: string, queries: string[], valuesPerKey: number): string {
  let template = MEMAGENT_TEMPLATE;
  let type = typeNeedleV;
  if (queries.length * valuesPerKey === 1) {
    template = template
      .replaceAll('Some', 'A')
      .replaceAll('are all', 'is')
      .replaceAll('are', 'is')
      .replaceAll('answers', 'answer');
    type = type.slice(0, -1);
  }
  const query = queries.length > 1 ? `${queries.slice(0, -1).join(', ')}, and ${queries.at(-1)}` : queries[0];
  return template.replaceAll('{type_needle_v}', type).replaceAll('{query}', query);
}

test('the question is MemAgent\'s `input` (D13); RULER\'s prompt with "I will quiz you" stays the native template', async () => {
  for (const name of ['niah_single_1', 'niah_multivalue', 'niah_multiquery']) {
    const s = (await task(name).prepare({ tokenizer, seed: 42, options: {} })).build(L8K, 3);
    const queries = s.metadata.queries as string[];
    const perKey = name === 'niah_multivalue' ? 4 : 1;
    assert.equal(s.question, memagentInput(s.metadata.value_kind as string, queries, perKey), name);
    assert.ok(!s.question.includes('I will quiz you'));
    assert.ok(s.prompt!.nativeTemplate!.includes('Make sure to memorize it. I will quiz you about the'));
  }
  const one = (await task('niah_single_1').prepare({ tokenizer, seed: 42, options: {} })).build(L8K, 0);
  const key = (one.metadata.queries as string[])[0];
  assert.equal(
    one.question,
    `A special magic number is hidden within the following text. Make sure to memorize it. What is the special magic number for ${key} mentioned in the provided text?`,
  );
});

test("essays: RULER's 49 repository files (rss.txt included), concatenated without a separator as download_paulgraham_essay.py does", () => {
  const dir = datasetPath('essays', 'paul_graham');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  assert.equal(files.length, 49);
  assert.ok(files.includes('rss.txt'));
  const essay = loadEssayText();
  assert.deepEqual(essay.files, files);
  // text = ""; for file in files: text += f.read()  →  then re.sub(r'\s+', " ", essay).split(" ")
  const raw = files.map((f) => readFileSync(`${dir}/${f}`, 'utf8')).join('');
  assert.equal(essay.sha256, createHash('sha256').update(raw).digest('hex'));
  assert.deepEqual(essay.words, raw.replace(/\s+/g, ' ').split(' '));
  // Files that end without a newline fuse with the next one's first word, as in RULER's haystack.
  assert.ok(essay.words.includes('this.October'));
  assert.ok(essay.words.includes('code.Aaron'), 'rootsoflisp.txt runs into rss.txt');
  assert.equal(essay.words.length, 111877);
});

test('--sizing ruler: one size per length from a probe, then whole 500-word / 25-line steps down per sample', async () => {
  assert.equal(niahSizing({}), 'exact');
  assert.equal(niahSizing({ sizing: 'ruler' }), 'ruler');
  assert.throws(() => niahSizing({ sizing: 'words' }), UserError);
  assert.equal(rulerStep('essay', 8192), 500);
  assert.equal(rulerStep('noise', 8192), 25);
  assert.equal(rulerStep('needle', 2048), 5);

  for (const [name, unitKey, step] of [
    ['niah_single_2', 'haystack_words', 500],
    ['niah_multikey_3', 'haystack_lines', 25],
  ] as const) {
    const exact = await task(name).prepare({ tokenizer, seed: 42, options: {} });
    const ruler = await task(name).prepare({ tokenizer, seed: 42, options: { sizing: 'ruler' } });
    let trimmed = 0;
    let start = 0;
    for (let i = 0; i < 24; i++) {
      const e: GeneratedSample = exact.build(L8K, i);
      const r: GeneratedSample = ruler.build(L8K, i);
      start = r.metadata.ruler_start_units as number;
      const units = r.metadata[unitKey] as number;
      assert.equal(r.metadata.ruler_step_units, step);
      assert.equal((start - units) % step, 0, `${name}/${i}: ${units} is ${start} minus whole steps`);
      assert.ok((r.metadata.prompt_tokens as number) + 128 <= 8192, 'never over the budget');
      assert.ok(units <= Math.max(start, e.metadata[unitKey] as number));
      // The same draws as the exact sizing: only the haystack size may differ.
      assert.deepEqual(r.answers, e.answers);
      assert.equal(r.question, e.question);
      if (units < start) {
        trimmed++;
        // Trimmed because the start was over budget for this sample; one step less fits.
        assert.ok((e.metadata[unitKey] as number) < start);
      }
    }
    assert.ok(start > 0);
    assert.ok(trimmed > 0, `${name}: some samples are trimmed by a whole step`);
  }
});

test("fitUnits follows RULER's loop: start, then step down while over; exact search as a fallback below one step", () => {
  const total = (u: number) => u * 10; // 10 tokens per unit
  assert.equal(fitUnits(total, 1000, 50), 100);
  assert.equal(fitUnits(total, 1000, 50, { kind: 'ruler', start: 100, step: 25 }), 100);
  assert.equal(fitUnits(total, 1000, 50, { kind: 'ruler', start: 130, step: 25 }), 80, '130 → 105 → 80');
  assert.equal(
    fitUnits(total, 1000, 50, { kind: 'ruler', start: 60, step: 25 }),
    60,
    'a start under the budget is kept',
  );
  assert.equal(fitUnits(total, 100, 5, { kind: 'ruler', start: 30, step: 25 }), 5, '30 → 5, which fits');
  assert.equal(
    fitUnits(total, 40, 5, { kind: 'ruler', start: 30, step: 25 }),
    4,
    'still over after the last step (RULER loops forever): exact',
  );
});

test('--sizing is a task option of bench run and bench generate (part of the run identity through the options)', () => {
  const run = parseCli(['run', 'niah_single_2', '--lengths', '8k', '--sizing', 'ruler']);
  assert.equal(run.command === 'run' && run.config.options.sizing, 'ruler');
  const gen = parseCli(['generate', 'niah_single_2', '--lengths', '8k', '--sizing', 'ruler', '--out', 'x.jsonl']);
  assert.equal(gen.command === 'generate' && gen.options.sizing, 'ruler');
});
