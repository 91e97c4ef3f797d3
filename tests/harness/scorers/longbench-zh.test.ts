import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { UserError } from '../../../harness/errors.js';
import { scoreTarget } from '../../../cli/commands/score.js';
import { scorePercent } from '../../../harness/protocol/round.js';
import { jiebaCut, jiebaDictionaryTotal } from '../../../generators/longbench/jieba.js';
import { lnInteger } from '../../../generators/longbench/jieba-log.js';
import { CN_PUNCTUATION, normalizeZhAnswer, qaF1Zh, rougeZh } from '../../../generators/longbench/metrics-zh.js';
import { getMetric } from './catalog-metrics.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const ZH_DIR = fixture('longbench-pred-llama2-7b-chat-4k-zh');
const EN_DIR = fixture('longbench-pred-llama2-7b-chat-4k');
const SPOTLIGHT_DIR = fixture('longbench-pred-llama2-7b-spotlight');

describe('jieba segmentation', () => {
  it("equals Python jieba 0.42.1's jieba.cut(text, cut_all=False) on every reference text", () => {
    const reference = JSON.parse(readFileSync(fixture('jieba-reference.json'), 'utf8')) as {
      text: string;
      tokens: string[];
    }[];
    assert.ok(reference.length > 100);
    for (const { text, tokens } of reference) assert.deepEqual(jiebaCut(text), tokens, JSON.stringify(text));
  });

  it("uses Python jieba's dictionary total and glibc's log values, which place the odd character of a run", () => {
    // jieba.dt.total with jieba's own dict.txt, which repeats one line that @node-rs/jieba's copy has once.
    assert.equal(jiebaDictionaryTotal(), 60_101_967);
    // math.log(3) in CPython; V8's Math.log(3) is one unit in the last place lower.
    assert.equal(lnInteger(3), 1.0986122886681098);
    assert.equal(lnInteger(60_101_967), Math.log(60_101_967));
    assert.equal(lnInteger(1), 0);
    assert.equal(lnInteger(2 ** 20), 20 * Math.LN2);
  });

  it('splits hyphenated digit runs as Python jieba does (where jieba-rs keeps "400-820" together)', () => {
    assert.deepEqual(jiebaCut('电话400-820-8788'), ['电话', '400', '-', '820', '-', '8788']);
    assert.deepEqual(jiebaCut('COVID-19'), ['COVID', '-', '19']);
  });
});

describe("LongBench's Chinese metrics", () => {
  it('normalize_zh_answer drops ASCII and the listed Chinese punctuation and all whitespace, and lower-cases', () => {
    assert.equal(CN_PUNCTUATION.length, 75);
    assert.equal(normalizeZhAnswer(' 《热诚》，A B。\u3000'), '《热诚ab');
    assert.equal(normalizeZhAnswer('！？'), '');
  });

  it('qa_f1_zh is token F1 over normalised jieba words; rouge_zh is pltrdy ROUGE-L F over space-joined words', () => {
    assert.equal(qaF1Zh('北京清华大学', '北京清华大学。'), 1);
    // pred 我/来到/北京, gold 北京/清华大学: one shared word, p = 1/3, r = 1/2
    assert.ok(Math.abs(qaF1Zh('我来到北京', '北京清华大学') - 0.4) < 1e-12);
    assert.equal(qaF1Zh('', '北京'), 0);
    assert.ok(rougeZh('我来到北京清华大学', '我来到北京清华大学') > 0.99);
    assert.equal(rougeZh('', '北京'), 0);
    assert.equal(getMetric('qa_f1_zh').score('北京', ['上海', '北京']), 1);
  });

  it("reproduces result.json for all five Chinese datasets of LongBench's published predictions", async () => {
    const expected = JSON.parse(readFileSync(join(ZH_DIR, 'result.json'), 'utf8')) as Record<string, number>;
    const table = await scoreTarget(ZH_DIR);
    assert.equal(table.format, 'longbench');
    assert.deepEqual(table.rows.map((r) => r.task).sort(), Object.keys(expected).sort());
    const metrics: Record<string, string> = {
      dureader: 'rouge_zh',
      vcsum: 'rouge_zh',
      multifieldqa_zh: 'qa_f1_zh',
      lsht: 'classification',
      passage_retrieval_zh: 'retrieval_zh',
    };
    for (const row of table.rows) {
      assert.equal(
        row.percent,
        expected[row.task],
        `${row.task}: ours ${row.percent}, LongBench ${expected[row.task]}`,
      );
      assert.equal(row.metric, metrics[row.task]);
      assert.equal(row.n, 200);
    }
    assert.deepEqual(table.warnings, []);
  });
});

describe("eval.py's rounding", () => {
  it('is round(100 * total / n, 2), which differs from rounding 100 × the mean at a tie', async () => {
    // CPython: round(100 * 13.950000000000001 / 200, 2) == 6.97; 13.950000000000001 / 200 * 100 rounds to 6.98.
    assert.equal(scorePercent('total', 13.950000000000001 / 200, 200, 13.950000000000001), 6.97);
    assert.equal(scorePercent('mean', 13.950000000000001 / 200), 6.98);
    const table = await scoreTarget(SPOTLIGHT_DIR);
    const [row] = table.rows;
    assert.equal(row.task, 'passage_retrieval_en');
    assert.equal(row.percent, 6.97);
    assert.equal(row.reference, 6.97);
  });
});

describe('bench score on a directory', () => {
  it('scores every file it can and names the others in one warning line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scorers-skip-'));
    try {
      cpSync(join(EN_DIR, 'hotpotqa.jsonl'), join(dir, 'hotpotqa.jsonl'));
      cpSync(join(ZH_DIR, 'multifieldqa_zh.jsonl'), join(dir, 'multifieldqa_zh.jsonl'));
      cpSync(join(EN_DIR, 'musique.jsonl'), join(dir, 'not_a_dataset.jsonl'));
      writeFileSync(join(dir, 'qasper.jsonl'), '{"pred": 3, "answers": ["x"], "all_classes": null}\n');
      const table = await scoreTarget(dir);
      assert.deepEqual(table.rows.map((r) => r.task).sort(), ['hotpotqa', 'multifieldqa_zh']);
      assert.equal(table.warnings.length, 1);
      const [warning] = table.warnings;
      assert.match(warning, /^skipped 2 files: not_a_dataset\.jsonl \(unknown LongBench dataset 'not_a_dataset'/);
      assert.match(warning, /qasper\.jsonl \(line 1: 'pred' must be a string/);
      assert.ok(!warning.includes('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a directory none of whose files it can score, naming them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scorers-skip-'));
    try {
      cpSync(join(EN_DIR, 'musique.jsonl'), join(dir, 'foo.jsonl'));
      cpSync(join(EN_DIR, 'musique.jsonl'), join(dir, 'bar.jsonl'));
      await assert.rejects(
        scoreTarget(dir),
        (err: unknown) =>
          err instanceof UserError && /could be scored: bar\.jsonl \(unknown.*; foo\.jsonl \(unknown/.test(err.message),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
