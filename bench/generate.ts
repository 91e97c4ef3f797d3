// Generation benchmark: `npx tsx bench/generate.ts` (or `npm run bench:generate`).
// For 3.5M-token samples of niah_single_2 and ruler-hqa: time to build a sample and produce all its token ids,
// against tokenizer.encode of the same context text in the same process (target: at most 1.5x the encode), and
// peak RSS of generation alone at 128k and 3.5m (and niah_single_1 at 1m and 50m), each in its own child process;
// and RULER's vt, cwe, fwe, qa_1, qa_2 at 512k in both flavours against niah_single_1 at 512k (target: within 10%;
// medians of 3 children each, with qa's pool cache warm after the first).
// Writes bench-out/generate.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../harness/paths.js';
import { loadTokenizer } from '../harness/tokenizer/index.js';
import type { TaskDefinition } from '../harness/types.js';
import { niahTasks } from '../generators/ruler/index.js';
import { syntheticTasks } from '../generators/ruler/synthetic-tasks.js';

const SIZES: Record<string, number> = {
  '128k': 131072,
  '512k': 524288,
  '1m': 1048576,
  '3.5m': 3670016,
  '50m': 52428800,
};

async function findTask(name: string): Promise<TaskDefinition> {
  const niah = [...niahTasks, ...syntheticTasks].find((t) => t.name === name);
  if (niah) return niah;
  if (name === 'ruler-hqa') {
    const mod = (await import('../generators/ruler-hqa/index.js')) as { rulerHqaTask: TaskDefinition };
    return mod.rulerHqaTask;
  }
  throw new Error(`unknown task ${name}`);
}

interface ChildResult {
  task: string;
  length: string;
  mode: 'speed' | 'rss';
  tokens: number;
  prepareMs: number;
  buildMs: number;
  piecesMs: number;
  encodeMs?: number;
  /** Time to stream the context text (what `bench generate` writes). */
  textMs?: number;
  peakRssMb: number;
}

/** Runs inside a child: prepare, build sample 0, stream its ids; in speed mode also encode the same text. */
async function child(taskName: string, label: string, mode: 'speed' | 'rss', flavour?: string): Promise<ChildResult> {
  const tokenizer = loadTokenizer('qwen2.5');
  const task = await findTask(taskName);
  let t = performance.now();
  const prepared = await task.prepare({ tokenizer, seed: 42, options: flavour ? { flavour } : {} });
  const prepareMs = performance.now() - t;
  const length = { kind: 'tokens' as const, value: SIZES[label], label };
  t = performance.now();
  const sample = prepared.build(length, 0);
  const buildMs = performance.now() - t;
  t = performance.now();
  let tokens = 0;
  for (const piece of sample.context.pieces()) tokens += piece.length;
  const piecesMs = performance.now() - t;
  if (tokens !== sample.context.tokenCount)
    throw new Error(`${taskName} ${label}: pieces hold ${tokens} tokens, tokenCount says ${sample.context.tokenCount}`);
  let encodeMs: number | undefined;
  let textMs: number | undefined;
  if (mode === 'speed') {
    t = performance.now();
    const text = sample.context.text();
    textMs = performance.now() - t;
    t = performance.now();
    const ids = tokenizer.encode(text);
    encodeMs = performance.now() - t;
    if (ids.length !== tokens)
      throw new Error(`${taskName} ${label}: encode gives ${ids.length} tokens, pieces ${tokens}`);
  }
  return {
    task: taskName,
    length: label,
    mode,
    tokens,
    prepareMs,
    buildMs,
    piecesMs,
    encodeMs,
    textMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function runChild(task: string, label: string, mode: 'speed' | 'rss', flavour?: string): ChildResult {
  const self = fileURLToPath(import.meta.url);
  const args = ['--import', 'tsx', self, '--child', task, label, mode, ...(flavour ? [flavour] : [])];
  const res = spawnSync(process.execPath, args, {
    cwd: packageRoot(),
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (res.status !== 0) throw new Error(`child ${task} ${label} ${mode} failed:\n${res.stderr}`);
  const line = res.stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as ChildResult;
}

const RSS_RUNS = 3;

/** The run with the median peak RSS of RSS_RUNS children, with every run's peak. */
function medianRun(task: string, label: string, flavour?: string): ChildResult & { runsMb: number[] } {
  const runs = Array.from({ length: RSS_RUNS }, () => runChild(task, label, 'rss', flavour));
  const sorted = [...runs].sort((a, b) => a.peakRssMb - b.peakRssMb);
  return { ...sorted[(RSS_RUNS - 1) >> 1], runsMb: runs.map((r) => Number(r.peakRssMb.toFixed(1))) };
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    console.log(JSON.stringify(await child(argv[1], argv[2], argv[3] as 'speed' | 'rss', argv[4])));
    return;
  }
  // `--ruler`: only the peak RSS of RULER's tasks at 512k beside niah_single_1's.
  const rulerOnly = argv.includes('--ruler');
  const speed: Array<Record<string, unknown>> = [];
  for (const task of rulerOnly ? [] : ['niah_single_2', 'ruler-hqa']) {
    const r = runChild(task, '3.5m', 'speed');
    const genMs = r.buildMs + r.piecesMs;
    const ratio = genMs / r.encodeMs!;
    const ratioWithPrepare = (genMs + r.prepareMs) / r.encodeMs!;
    speed.push({
      task,
      length: '3.5m',
      tokens: r.tokens,
      prepare_ms: Number(r.prepareMs.toFixed(1)),
      build_ms: Number(r.buildMs.toFixed(1)),
      pieces_ms: Number(r.piecesMs.toFixed(1)),
      encode_ms: Number(r.encodeMs!.toFixed(1)),
      text_ms: Number(r.textMs!.toFixed(1)),
      generate_tokens_per_s: Math.round(r.tokens / (genMs / 1000)),
      generate_tokens_per_s_with_prepare: Math.round(r.tokens / ((genMs + r.prepareMs) / 1000)),
      encode_tokens_per_s: Math.round(r.tokens / (r.encodeMs! / 1000)),
      cost_ratio: Number(ratio.toFixed(4)),
      cost_ratio_with_prepare: Number(ratioWithPrepare.toFixed(4)),
      within_target: ratioWithPrepare <= 1.5,
    });
    console.log(
      `${task} 3.5m (${fmt(r.tokens)} tokens): generate ${fmt(r.tokens / ((genMs + r.prepareMs) / 1000))} tok/s with the one-time prepare ` +
        `(${fmt(r.tokens / (genMs / 1000))} tok/s without: build ${r.buildMs.toFixed(0)} ms + ids ${r.piecesMs.toFixed(0)} ms, prepare ${r.prepareMs.toFixed(0)} ms; ` +
        `text ${r.textMs!.toFixed(0)} ms), raw encode ${fmt(r.tokens / (r.encodeMs! / 1000))} tok/s; ` +
        `cost ratio ${ratio.toFixed(3)}x (${ratioWithPrepare.toFixed(3)}x with prepare; target <= 1.5x)`,
    );
  }
  const rss: Array<Record<string, unknown>> = [];
  const rssRuns: Array<[string, string]> = rulerOnly
    ? []
    : [
        ['niah_single_2', '128k'],
        ['niah_single_2', '3.5m'],
        ['ruler-hqa', '128k'],
        ['ruler-hqa', '3.5m'],
        ['niah_single_1', '1m'],
        ['niah_single_1', '50m'],
      ];
  for (const [task, label] of rssRuns) {
    const r = runChild(task, label, 'rss');
    rss.push({
      task,
      length: label,
      tokens: r.tokens,
      peak_rss_mb: Number(r.peakRssMb.toFixed(1)),
      generate_ms: Number((r.buildMs + r.piecesMs).toFixed(1)),
    });
    console.log(`peak RSS ${task} ${label}: ${r.peakRssMb.toFixed(0)} MB (generation only, ${fmt(r.tokens)} tokens)`);
  }
  // RULER's other tasks at 512k, each flavour, against niah_single_1 at 512k: contexts stream from cached ids, so
  // their peak RSS should stay within 10% of the noise haystack's. A child's peak moves by a few percent with the
  // moment V8 collects the tokenizer's start-up garbage, so each is run RSS_RUNS times and the median is compared.
  const base = medianRun('niah_single_1', '512k');
  const synthetic: Array<Record<string, unknown>> = [];
  console.log(
    `peak RSS niah_single_1 512k: ${base.peakRssMb.toFixed(0)} MB, median of ${base.runsMb.join(', ')} (the reference for RULER's other tasks)`,
  );
  for (const t of syntheticTasks)
    for (const flavour of ['memagent', 'ruler']) {
      const r = medianRun(t.name, '512k', flavour);
      const ratio = r.peakRssMb / base.peakRssMb;
      synthetic.push({
        task: t.name,
        flavour,
        length: '512k',
        tokens: r.tokens,
        peak_rss_mb: Number(r.peakRssMb.toFixed(1)),
        peak_rss_runs_mb: r.runsMb,
        vs_niah_single_1: Number(ratio.toFixed(3)),
        within_10_percent: ratio <= 1.1,
        generate_ms: Number((r.buildMs + r.piecesMs).toFixed(1)),
      });
      console.log(
        `peak RSS ${t.name} (${flavour}) 512k: ${r.peakRssMb.toFixed(0)} MB (median of ${r.runsMb.join(', ')}), ${ratio.toFixed(3)}x niah_single_1 (${fmt(r.tokens)} tokens, build + ids ${(r.buildMs + r.piecesMs).toFixed(0)} ms)`,
      );
    }
  const outDir = join(packageRoot(), 'bench-out');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'generate.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        node: process.version,
        speed,
        rss,
        synthetic: {
          rss_runs: RSS_RUNS,
          niah_single_1_512k_mb: base.peakRssMb,
          niah_single_1_512k_runs_mb: base.runsMb,
          runs: synthetic,
        },
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${file}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
