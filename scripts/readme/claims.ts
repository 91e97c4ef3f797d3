// Every number the README (and docs/SIMULATION.md) quotes from a command, with the command that produces it.
// A claim names its marker (scripts/readme/markers.ts) and turns the command's real output into what the marked
// text must say (scripts/readme/compare.ts). Tier `test`: seconds, run by tests/scripts/readme/claims.test.ts;
// tier `script`: minutes, run by `npx tsx scripts/check-readme.ts` (CI: .ci/run).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRunner } from './bench-process.js';
import type { Expected } from './compare.js';

export type Tier = 'test' | 'script';

export interface ClaimContext {
  bench: BenchRunner;
  /** A fresh folder for this check's run directories and files. */
  tmp: string;
}

export interface Claim {
  /** The marker id in the documents. */
  marker: string;
  tier: Tier;
  /** The command(s) the numbers come from, as a reader would type them. */
  command: string;
  expected(ctx: ClaimContext): Promise<Expected>;
}

const int = (n: number) => n.toLocaleString('en-US');
const num = (s: string) => Number(s.replace(/,/g, ''));
/** 1,002,341,183 → "1.00B" (glued) or "1.00 B". */
const billions = (n: number, space: boolean) => `${(n / 1e9).toFixed(2)}${space ? ' ' : ''}B`;
/** RULER's labels in the README's prose: 32k → 32K, 3.5m → 3.5M. */
const upper = (label: string) => label.toUpperCase();
/** The report's signed numbers in the README's typography: "-0.78" → "−0.78". */
const minus = (s: string) => s.replace(/-/g, '−');
/** "1.0000" → "1", "0.0005" → "0.0005". */
const shortP = (s: string) => String(Number(s));

// --- bench run --dry-run -------------------------------------------------------------------------------------------

export const QUICKSTART = ['run', 'ruler-hqa', '--lengths', '32k..3.5m'];

interface DryRun {
  lengths: string[];
  rows: { length: string; samples: number; contextTokens: number; calls: number }[];
  calls: number;
  promptMax: number;
}

export function parseDryRun(stdout: string): DryRun {
  const grid = /lengths (.+) \(\d+ points?\)/.exec(stdout);
  const total = /^total: ([\d,]+) calls, at most ([\d,]+) prompt/m.exec(stdout);
  if (!grid || !total) throw new Error(`not a dry-run output:\n${stdout}`);
  const rows = stdout
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/))
    .filter((c) => c.length === 8 && /^[\d,]+$/.test(c[3]))
    .map((c) => ({ length: c[1], samples: num(c[3]), contextTokens: num(c[4]), calls: num(c[5]) }));
  return { lengths: grid[1].split(', '), rows, calls: num(total[1]), promptMax: num(total[2]) };
}

const dryRun = async (ctx: ClaimContext) => parseDryRun((await ctx.bench([...QUICKSTART, '--dry-run'])).stdout);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

// --- the quick start, run for real --------------------------------------------------------------------------------

const quickstart = (ctx: ClaimContext) =>
  ctx.bench([...QUICKSTART, '--no-progress', '--out', join(ctx.tmp, 'quickstart')]);

interface SummaryRow {
  n: number;
  calls: number;
  meanBuiltTokens: number;
}

// --- bench plan ----------------------------------------------------------------------------------------------------

export const PLAN = [
  'plan',
  'ruler-hqa',
  '--lengths',
  'docs:50..25600',
  '--concurrency',
  '256',
  '--simulate',
  'qwen2.5-14b-8xh100',
];

interface Plan {
  calls: string;
  concurrency: string;
  harness: { wall: string; gpuHours: string };
  lengthByLength: string;
  bound: string;
  within: string;
  next?: { concurrency: string; wall: string };
}

export function parsePlan(stdout: string): Plan {
  const m = {
    calls: /^total: ([\d,]+) calls/m.exec(stdout),
    harness: /^harness: .*?(\d+) in flight\s+([\d.]+ h)\s+([\d.]+)/m.exec(stdout),
    lbl: /^length by length.*?\s{2,}([\d.]+ h)/m.exec(stdout),
    bound: /^lower bound\s+([\d.]+ h)/m.exec(stdout),
    within: /within (\d+%) of the lower bound/.exec(stdout),
    tried: /^\s*tried (.+)$/m.exec(stdout),
  };
  if (!m.calls || !m.harness || !m.lbl || !m.bound || !m.within || !m.tried)
    throw new Error(`not a bench plan output:\n${stdout}`);
  const tried = m.tried[1].split(', ').map((t) => t.split(': '));
  const at = tried.findIndex(([c]) => c === m.harness![1]);
  const next = tried[at + 1];
  return {
    calls: m.calls[1],
    concurrency: m.harness[1],
    harness: { wall: m.harness[2], gpuHours: m.harness[3] },
    lengthByLength: m.lbl[1],
    bound: m.bound[1],
    within: m.within[1],
    next: next ? { concurrency: next[0], wall: next[1] } : undefined,
  };
}

const plan = async (ctx: ClaimContext) => parsePlan((await ctx.bench(PLAN)).stdout);

// --- the paired example --------------------------------------------------------------------------------------------

export const PAIRED = [
  'run',
  'ruler-hqa',
  '--lengths',
  '32k,1m',
  '--samples',
  '128',
  '--method',
  'memagent,full-context',
];

interface PairedRow {
  diff: string;
  ciLow: string;
  ciHigh: string;
  p: string;
  holm: string;
  significant: boolean;
  onlyA: number;
  onlyB: number;
}

/** The terminal's paired table (B − A, CI, p, Holm p, verdict) and paired.json's discordant counts, per length label. */
export function parsePaired(stdout: string, pairedJson: string): Map<string, PairedRow> {
  const json = JSON.parse(pairedJson) as { rows: { lengthLabel: string; onlyA: number; onlyB: number }[] };
  const out = new Map<string, PairedRow>();
  for (const line of stdout.split('\n')) {
    const c = line.trim().split(/\s{2,}/);
    if (c.length < 13 || !/^[\d.]+$/.test(c[10])) continue;
    const ci = /^\[(\S+), (\S+)\]$/.exec(c[8]);
    const row = json.rows.find((r) => r.lengthLabel.toUpperCase() === c[1].toUpperCase());
    if (!ci || !row) continue;
    out.set(c[1].toUpperCase(), {
      diff: c[7],
      ciLow: ci[1],
      ciHigh: ci[2],
      p: c[10],
      holm: c[11],
      significant: c[12] === 'yes',
      onlyA: row.onlyA,
      onlyB: row.onlyB,
    });
  }
  return out;
}

// --- LongBench's hotpotqa fixture ----------------------------------------------------------------------------------

/** `bench score`'s score column for one dataset row. */
export function parseScore(stdout: string, dataset: string): string {
  const m = new RegExp(
    `^${dataset}\\s.*?\\s(?:qa_f1\\w*|rouge_\\w+|classification|retrieval\\w*)\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s+([\\d.]+)`,
    'm',
  ).exec(stdout);
  if (!m) throw new Error(`no score row for ${dataset} in:\n${stdout}`);
  return m[1];
}

interface LongBenchRecord {
  index: number;
  rawOutput: string;
  answers: string[];
  metadata: { length: number; all_classes: string[] | null };
}

// --- the claims ----------------------------------------------------------------------------------------------------

export const CLAIMS: Claim[] = [
  {
    marker: 'quickstart-lengths',
    tier: 'test',
    command: 'bench run ruler-hqa --lengths 32k..3.5m --dry-run',
    async expected(ctx) {
      const d = await dryRun(ctx);
      const per = [...new Set(d.rows.map((r) => r.samples))];
      if (per.length !== 1) throw new Error(`lengths hold different sample counts: ${per.join(', ')}`);
      return { kind: 'values', values: [...d.lengths.map(upper), int(per[0])] };
    },
  },
  {
    marker: 'quickstart-counts',
    tier: 'test',
    command: 'bench run ruler-hqa --lengths 32k..3.5m --dry-run',
    async expected(ctx) {
      const d = await dryRun(ctx);
      const samples = sum(d.rows.map((r) => r.samples));
      const tokens = sum(d.rows.map((r) => r.contextTokens));
      return { kind: 'values', values: [int(samples), billions(tokens, false), int(d.calls)] };
    },
  },
  {
    marker: 'quickstart-counts',
    tier: 'script',
    command: 'bench run ruler-hqa --lengths 32k..3.5m (its summary.json and "this invocation" line)',
    async expected(ctx) {
      const out = await quickstart(ctx);
      const calls = /this invocation: ([\d,]+) model calls/.exec(out.stdout);
      const summary = JSON.parse(readFileSync(join(ctx.tmp, 'quickstart', 'summary.json'), 'utf8')) as {
        rows: SummaryRow[];
      };
      const samples = sum(summary.rows.map((r) => r.n));
      const tokens = sum(summary.rows.map((r) => Math.round(r.meanBuiltTokens * r.n)));
      if (!calls) throw new Error(`no "this invocation" line in:\n${out.stdout}`);
      return { kind: 'values', values: [int(samples), billions(tokens, false), int(num(calls[1]))] };
    },
  },
  {
    marker: 'quickstart-table',
    tier: 'script',
    command: 'bench run ruler-hqa --lengths 32k..3.5m',
    async expected(ctx) {
      return { kind: 'excerpt', output: (await quickstart(ctx)).stdout };
    },
  },
  {
    marker: 'lengths-doubling',
    tier: 'test',
    command: 'bench run ruler-hqa --lengths 32k..3.5m --dry-run (the grid line)',
    async expected(ctx) {
      return { kind: 'values', values: (await dryRun(ctx)).lengths };
    },
  },
  {
    marker: 'dry-run-example',
    tier: 'test',
    command: 'bench run ruler-hqa --lengths 32k..3.5m --dry-run (the total line)',
    async expected(ctx) {
      const d = await dryRun(ctx);
      return { kind: 'values', values: [int(d.calls), billions(d.promptMax, true)] };
    },
  },
  {
    marker: 'chain-3.5m',
    tier: 'test',
    command: 'bench run ruler-hqa --lengths 32k..3.5m --dry-run (calls ÷ samples at 3.5m)',
    async expected(ctx) {
      const row = (await dryRun(ctx)).rows.find((r) => r.length === '3.5m');
      if (!row) throw new Error('no 3.5m row in the dry run');
      return { kind: 'values', values: [`~${Math.round(row.calls / row.samples)}`] };
    },
  },
  {
    marker: 'plan-example',
    tier: 'test',
    command: `bench ${PLAN.join(' ')}`,
    async expected(ctx) {
      const p = await plan(ctx);
      return {
        kind: 'values',
        values: [p.harness.wall, p.harness.gpuHours, p.concurrency, p.bound, p.lengthByLength],
      };
    },
  },
  {
    marker: 'plan-calls',
    tier: 'test',
    command: `bench ${PLAN.join(' ')}`,
    async expected(ctx) {
      return { kind: 'values', values: [(await plan(ctx)).calls] };
    },
  },
  {
    marker: 'plan-example-sim',
    tier: 'test',
    command: `bench ${PLAN.join(' ')}`,
    async expected(ctx) {
      const p = await plan(ctx);
      if (!p.next) throw new Error(`bench plan tried no concurrency above ${p.concurrency}`);
      return {
        kind: 'values',
        values: [
          p.concurrency,
          p.harness.wall,
          p.harness.gpuHours,
          p.bound,
          p.lengthByLength,
          p.concurrency,
          p.within,
          p.next.concurrency,
          p.next.wall,
        ],
      };
    },
  },
  {
    marker: 'paired-example',
    tier: 'script',
    command: `bench ${PAIRED.join(' ')}, then bench report`,
    async expected(ctx) {
      const dir = join(ctx.tmp, 'paired');
      await ctx.bench([...PAIRED, '--no-progress', '--out', dir]);
      const report = await ctx.bench(['report', dir]);
      const rows = parsePaired(report.stdout, readFileSync(join(dir, 'paired.json'), 'utf8'));
      const a = rows.get('32K');
      const b = rows.get('1M');
      if (!a || !b) throw new Error(`no 32K and 1M rows in:\n${report.stdout}`);
      const verdict = (r: PairedRow) => (r.significant ? 'significant' : 'not significant');
      return {
        kind: 'values',
        values: [
          minus(a.diff),
          minus(a.ciLow),
          minus(a.ciHigh),
          '32K',
          String(a.onlyA),
          String(a.onlyB),
          shortP(a.p),
          verdict(a),
          minus(b.diff),
          minus(b.ciLow),
          minus(b.ciHigh),
          '1M',
          String(b.onlyB),
          String(b.onlyA),
          shortP(b.p),
          shortP(b.holm),
          verdict(b),
        ],
      };
    },
  },
  {
    marker: 'longbench-fixture',
    tier: 'test',
    command:
      "bench run longbench/hotpotqa; bench score of its LongBench-layout predictions (eval.py's metric), then of its raw replies",
    async expected(ctx) {
      const dir = join(ctx.tmp, 'longbench');
      const run = await ctx.bench(['run', 'longbench/hotpotqa', '--no-progress', '--out', dir]);
      const all = /^all\s+\d+\s+([\d.]+)/m.exec(run.stdout);
      if (!all) throw new Error(`no "all" row in:\n${run.stdout}`);
      const records = readFileSync(join(dir, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LongBenchRecord)
        .sort((x, y) => x.index - y.index);
      const raw = join(ctx.tmp, 'longbench-raw', 'pred', 'raw');
      mkdirSync(raw, { recursive: true });
      const rows = records.map((r) =>
        JSON.stringify({
          pred: r.rawOutput,
          answers: r.answers,
          all_classes: r.metadata.all_classes,
          length: r.metadata.length,
        }),
      );
      writeFileSync(join(raw, 'hotpotqa.jsonl'), rows.join('\n') + '\n');
      const scored = await ctx.bench(['score', raw]);
      return { kind: 'values', values: [all[1], parseScore(scored.stdout, 'hotpotqa')] };
    },
  },
  {
    marker: 'longbench-zh-parity',
    tier: 'test',
    command:
      "bench score tests/harness/scorers/fixtures/longbench-pred-llama2-7b-chat-4k-zh (LongBench's published Chinese predictions)",
    async expected(ctx) {
      const dir = fileURLToPath(
        new URL('../../tests/harness/scorers/fixtures/longbench-pred-llama2-7b-chat-4k-zh', import.meta.url),
      );
      const scored = await ctx.bench(['score', dir]);
      return {
        kind: 'values',
        values: ['dureader', 'multifieldqa_zh', 'vcsum', 'lsht', 'passage_retrieval_zh'].map((d) =>
          parseScore(scored.stdout, d),
        ),
      };
    },
  },
  {
    marker: 'malformed-row',
    tier: 'test',
    command: 'bench run ruler-hqa --data eval_50.json (item 1 without "answers")',
    async expected(ctx) {
      const dir = join(ctx.tmp, 'malformed');
      mkdirSync(dir, { recursive: true });
      const row = { context: 'Document 1:\nAda Lovelace\nAugusta Ada King', input: 'Who?', num_docs: 50 };
      const rows = [
        { ...row, answers: ['Ada'], index: 0 },
        { ...row, index: 1 },
      ];
      writeFileSync(join(dir, 'eval_50.json'), JSON.stringify(rows));
      const out = await ctx.bench(['run', 'ruler-hqa', '--data', 'eval_50.json'], { cwd: dir, expectCode: 2 });
      return { kind: 'text', text: out.stderr.trim() };
    },
  },
  {
    marker: 'shard-share',
    tier: 'test',
    command: 'bench run ruler-hqa --lengths 8k --samples 8 --shard 0/2 (the n column)',
    async expected(ctx) {
      const args = ['run', 'ruler-hqa', '--lengths', '8k', '--samples', '8', '--shard', '0/2', '--no-progress'];
      const out = await ctx.bench([...args, '--out', join(ctx.tmp, 'shard')]);
      const row = /^8k\s{2,}(.+?)\s{2,}[\d.]+\s{2,}\d+\s{2,}\d+\s*$/m.exec(out.stdout);
      if (!row) throw new Error(`no 8k row in:\n${out.stdout}`);
      return { kind: 'values', values: [`n = ${row[1]}`] };
    },
  },
  {
    marker: 'pool-paragraphs',
    tier: 'test',
    command: 'bench generate ruler-hqa --lengths 32k --samples 1 --format native (metadata.pool_size)',
    async expected(ctx) {
      const file = join(ctx.tmp, 'one-sample.jsonl');
      await ctx.bench([
        'generate',
        'ruler-hqa',
        '--lengths',
        '32k',
        '--samples',
        '1',
        '--format',
        'native',
        '--out',
        file,
      ]);
      const row = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { metadata: { pool_size: number } };
      return { kind: 'values', values: [int(row.metadata.pool_size)] };
    },
  },
];
