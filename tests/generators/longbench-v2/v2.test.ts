// LongBench v2: prompts byte for byte, pred.py's replace chain, extraction, the loader, the fixture builder, and a real
// run of the binary (full-context with CoT, MemAgent) on the bundled fixture, its summary classes, the chart and
// `bench export --format longbench-v2` recounted the way result.py counts. Needs `npm run build` (dist/).
import { afterAll, beforeAll, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import {
  v2Prompt,
  v2PromptParts,
  V2_PROMPTS,
  ZERO_SHOT,
  ZERO_SHOT_COT,
  ZERO_SHOT_COT_ANS,
  ZERO_SHOT_NO_CONTEXT,
  ZERO_SHOT_RAG,
} from '../../../generators/longbench-v2/prompts.js';
import { extractV2Answer } from '../../../generators/longbench-v2/scoring.js';
import { parseV2, v2FixturePath } from '../../../generators/longbench-v2/load.js';
import { buildV2FixtureRows, toV2Json } from '../../../generators/longbench-v2/fixture-rows.js';
import { loadHotpot } from '../../../generators/ruler-hqa/hotpotqa.js';
import { longbenchV2Task } from '../../../generators/longbench-v2/index.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { UserError } from '../../../harness/errors.js';
import { fillTemplate } from '../../../harness/methods/templates.js';
import { pyRound } from '../../../harness/protocol/round.js';

const sha16 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 16);
const item = { question: ' Q? ', choice_A: 'a', choice_B: 'b', choice_C: 'c', choice_D: 'd' };

describe('LongBench v2 prompts', () => {
  it("are THUDM/LongBench's prompts/*.txt byte for byte", () => {
    assert.equal(sha16(ZERO_SHOT), '68a162252bc9ff71');
    assert.equal(sha16(ZERO_SHOT_COT), '6cc33d92fd8f6116');
    assert.equal(sha16(ZERO_SHOT_COT_ANS), '85ec59df4ac0e27a');
    assert.equal(sha16(ZERO_SHOT_NO_CONTEXT), '125fb44183af01ff');
    assert.equal(sha16(ZERO_SHOT_RAG), '5c50ce4fa24d297b');
  });

  it("fill as pred.py's replace chain: values stripped, placeholders inside the document or question replaced", () => {
    const doc = '  The $Q$ doc says $C_B$ and $& {x}. ';
    const tricky = { ...item, question: 'Which of $C_A$?' };
    const p = v2Prompt('0shot', doc, tricky);
    assert.ok(p.includes('<text>\nThe Which of a? doc says b and $& {x}.\n</text>'));
    assert.ok(p.includes('question: Which of a?\nChoices:\n(A) a\n(B) b'));
    // The harness's parts, put together, are the same prompt, in every mode.
    for (const mode of V2_PROMPTS) {
      const parts = v2PromptParts(mode, doc, tricky);
      assert.equal(
        fillTemplate(parts.fullContext, { context: parts.context, question: 'unused' }),
        v2Prompt(mode, doc, tricky),
      );
    }
    assert.equal(v2PromptParts('0shot_no_context', doc, item).context, '');
    assert.ok(v2PromptParts('0shot_cot', doc, item).followUp?.includes('Let’s think step by step: $COT$\n\nBased on'));
    assert.throws(() => v2PromptParts('0shot', doc, { ...item, choice_C: 'see {context}' }), UserError);
  });

  it('the task sets pred.py decoding: T 0.1, 128 new tokens, 1,024 for the CoT pass and 128 for its answer call', async () => {
    const tokenizer = loadTokenizer('qwen2.5');
    const all = { kind: 'native' as const, value: 0, label: 'all' };
    const plain = (await longbenchV2Task.prepare({ tokenizer, seed: 42, options: {} })).build(all, 0);
    assert.deepEqual(plain.prompt?.decoding, { temperature: 0.1, topP: 1 });
    assert.equal(plain.prompt?.maxNewTokens, 128);
    assert.equal(plain.prompt?.truncation, 'joined');
    assert.equal(plain.prompt?.followUp, undefined);
    assert.match(plain.question, /^What is the correct answer to this question: .*\nChoices:\n\(A\) /);
    const cot = (await longbenchV2Task.prepare({ tokenizer, seed: 42, options: { 'v2-prompt': '0shot_cot' } })).build(
      all,
      0,
    );
    assert.equal(cot.prompt?.maxNewTokens, 1024);
    assert.equal(cot.prompt?.followUp?.maxNewTokens, 128);
    assert.equal(cot.prompt?.followUp?.placeholder, '$COT$');
    await assert.rejects(
      longbenchV2Task.prepare({ tokenizer, seed: 42, options: { 'v2-prompt': 'cot' } }),
      /--v2-prompt must be 0shot, 0shot_cot, 0shot_rag, 0shot_no_context; got 'cot'/,
    );
  });
});

describe('LongBench v2 extraction and data', () => {
  it("extract_answer: stars removed, '(X)' before bare 'X', else none", () => {
    assert.equal(extractV2Answer('**The correct answer is (B)**'), 'B');
    assert.equal(extractV2Answer('The correct answer is C, because'), 'C');
    assert.equal(extractV2Answer('The correct answer is D. No: The correct answer is (A)'), 'A');
    assert.equal(extractV2Answer('the correct answer is (B)'), null);
    assert.equal(extractV2Answer('The correct answer is (E)'), null);
  });

  it('reads data.json arrays and JSON lines; a bad item is one line naming it and the field', () => {
    const fixture = readFileSync(v2FixturePath(), 'utf8');
    const rows = parseV2(fixture, 'fixture.json');
    assert.equal(rows.length, 8);
    assert.equal(parseV2(rows.map((r) => JSON.stringify(r)).join('\n'), 'x.jsonl').length, 8);
    const bad = JSON.stringify([{ ...rows[0], answer: 'E' }]);
    assert.throws(() => parseV2(bad, 'd.json'), /d\.json: item 0: field "answer" must be one of A, B, C, D, got "E"/);
  });

  it('the committed fixture is exactly what the builder makes, with every class result.py divides by', () => {
    const text = toV2Json(buildV2FixtureRows(loadHotpot()));
    assert.equal(readFileSync(v2FixturePath(), 'utf8'), text);
    const rows = parseV2(text, 'fixture.json');
    for (const d of ['easy', 'hard']) assert.ok(rows.some((r) => r.difficulty === d));
    for (const l of ['short', 'medium', 'long']) assert.ok(rows.some((r) => r.length === l));
    for (const r of rows) assert.ok(r.context.includes(r[`choice_${r.answer}` as 'choice_A']), r._id);
  });
});

describe('bench run longbench-v2 (the real binary, embedded reader)', () => {
  const root = mkdtempSync(join(tmpdir(), 'bench-v2-'));
  const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
  const ok = async (args: string[]) => {
    const r = await runBench(args, { env });
    assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
    return r.stdout;
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let runOut = '';
  beforeAll(async () => {
    runOut = await ok([
      'run',
      'longbench-v2',
      '--method',
      'full-context,memagent',
      '--v2-prompt',
      '0shot_cot',
      '--max-context',
      '1200',
      '--no-progress',
      '--out',
      join(root, 'run'),
    ]);
  }, 300_000);

  it("prints result.py's classes; CoT makes two calls, the second fed the first reply", () => {
    for (const label of ['Easy', 'Hard', 'Short', 'Medium', 'Long'])
      assert.match(runOut, new RegExp(`^${label} `, 'm'));
    const records = readFileSync(join(root, 'run', 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const fc = records.filter((r) => r.method === 'full-context');
    assert.equal(fc.length, 8);
    for (const r of fc) {
      assert.equal(r.calls, 2);
      assert.equal(typeof r.extra.first_output, 'string');
      assert.match(r.rawOutput, /The correct answer is \([A-D]\)/);
      assert.equal(r.metadata.fixture, true);
    }
  });

  it("bench export --format longbench-v2 writes pred.py's rows; result.py's arithmetic on them gives the summary", async () => {
    await ok(['export', join(root, 'run'), '--format', 'longbench-v2', '--out', join(root, 'export')]);
    await ok(['report', join(root, 'run'), '--out', join(root, 'report')]);
    const summary = JSON.parse(readFileSync(join(root, 'report', 'summary.json'), 'utf8')) as {
      rows: Array<{ task: string; method: string; lengthLabel: string; score: number }>;
      buckets: Array<{ task: string; method: string; lengthLabel: string; score: number }>;
    };
    const files = readdirSync(join(root, 'export', 'results')).sort();
    assert.deepEqual(files, [
      'local_reference-reader-v1__full-context_cot.jsonl',
      'local_reference-reader-v1__memagent_cot.jsonl',
    ]);
    for (const file of files) {
      const rows = readFileSync(join(root, 'export', 'results', file), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(Object.keys(rows[0]).slice(0, 12), [
        '_id',
        'domain',
        'sub_domain',
        'difficulty',
        'length',
        'question',
        'choice_A',
        'choice_B',
        'choice_C',
        'choice_D',
        'answer',
        'context',
      ]);
      assert.deepEqual(Object.keys(rows[0]).slice(-3), ['response', 'pred', 'judge']);
      // result.py: acc = int(judge); easy vs else; short, medium, else long; round(100 * acc / n, 1).
      const acc = (f: (r: { difficulty: string; length: string }) => boolean) => {
        const sel = rows.filter(f);
        return pyRound((100 * sel.filter((r) => r.judge).length) / sel.length, 1);
      };
      const ours = acc(() => true);
      const method = file.includes('memagent') ? 'memagent' : 'full-context';
      const row = (label: string) =>
        [...summary.rows, ...summary.buckets].find(
          (r) => r.task === 'longbench-v2' && r.method === method && r.lengthLabel === label,
        )!;
      assert.equal(ours, pyRound(100 * row('all').score, 1), file);
      assert.equal(
        acc((r) => r.difficulty === 'easy'),
        pyRound(100 * row('Easy').score, 1),
      );
      assert.equal(
        acc((r) => r.difficulty !== 'easy'),
        pyRound(100 * row('Hard').score, 1),
      );
      assert.equal(
        acc((r) => r.length === 'short'),
        pyRound(100 * row('Short').score, 1),
      );
      assert.equal(
        acc((r) => r.length === 'medium'),
        pyRound(100 * row('Medium').score, 1),
      );
      assert.equal(
        acc((r) => r.length !== 'short' && r.length !== 'medium'),
        pyRound(100 * row('Long').score, 1),
      );
      assert.equal(rows[0].context.length <= 1000, true);
    }
    const charts = readdirSync(join(root, 'report', 'charts')).filter((f) => f.startsWith('longbench-v2-'));
    assert.ok(charts.some((f) => f.endsWith('.png')));
    assert.ok(!readdirSync(join(root, 'report', 'charts')).some((f) => f.startsWith('longbench-scores')));
    writeFileSync(join(root, 'done'), '');
  });
});
