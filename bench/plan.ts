// bench plan against a live run: `npx tsx bench/plan.ts [--time-scale 4] [--server reader|fast|both] [-- RUN-ARGS]`
// (needs `npm run build`). Default RUN-ARGS: ruler-hqa --lengths docs:50..400 --samples 8 --concurrency 32.
//
// For each server, starts the simulated GPU server (`--simulate qwen2.5-7b-h100 --time-scale X`), runs
// `bench run RUN-ARGS` against it in a child process, and measures the makespan from calls.jsonl (first call's start
// to last call's end, × X = simulated seconds). Then asks `bench plan RUN-ARGS` for its prediction of the harness
// schedule three ways, and prints each prediction ÷ measured (goal: within 15%):
//   preset + measured outputs: the preset's timing with the completion lengths the run actually produced
//                              (--output-tokens from the run): checks the schedule and timing model;
//   calibrated:                `bench plan --calibrate RUN_DIR --time-scale X`: timing and outputs fitted to the run;
//   preset + assumed outputs:  the defaults a user gets before any run (update=400:0.5, final=60:0.6).
// Servers: `reader` is the `bench serve` binary with the embedded reader, whose CPU time per call (before the
// simulated delay starts) is part of what is measured; `fast` is `bench serve`'s entry in this process with a reply
// function of microseconds (and the qwen2.5 tokenizer's counts), so the GPU model's timing is all that is measured.
// Writes bench-out/plan.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serveCommand } from '../cli/commands/serve.js';
import { serveOptionsFromFlags } from '../reference/serve/options.js';
import { modelFromReply } from '../reference/serve/reply-model.js';
import { loadTokenizer } from '../harness/tokenizer/index.js';
import type { CallRecord, ChatMessage } from '../harness/types.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const BIN = join(root, 'bin', 'bench.js');

const { values, positionals } = parseArgs({
  options: {
    'time-scale': { type: 'string', default: '4' },
    preset: { type: 'string', default: 'qwen2.5-7b-h100' },
    server: { type: 'string', default: 'both' },
    out: { type: 'string', default: 'bench-out/plan.json' },
  },
  allowPositionals: true,
});
const X = Number(values['time-scale']);
const preset = values.preset!;
const runArgs =
  positionals.length > 0
    ? positionals
    : ['ruler-hqa', '--lengths', 'docs:50..400', '--samples', '8', '--concurrency', '32'];
const servers = values.server === 'both' ? ['reader', 'fast'] : [values.server!];

function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; wallS: number }> {
  const t0 = performance.now();
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout, stderr, wallS: (performance.now() - t0) / 1000 }));
  });
}

/** A server at its URL, and how to stop it. */
interface Server {
  url: string;
  stop: () => void;
}

function readerServer(): Promise<Server> {
  return new Promise((res, rej) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--simulate', preset, '--time-scale', String(X)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) res({ url: m[1], stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => rej(new Error(`bench serve exited ${code}: ${out}`)));
  });
}

async function fastServer(): Promise<Server> {
  const tokenizer = loadTokenizer('qwen2.5');
  // Memory updates of 120..349 words (about 350..1000 tokens) and one-line answers, chosen by a hash of the prompt.
  const reply = (messages: ChatMessage[]) => {
    const prompt = messages[messages.length - 1].content;
    const h = createHash('sha256').update(prompt).digest().readUInt32LE(0);
    if (prompt.includes('<section>'))
      return Array.from({ length: 120 + (h % 230) }, (_, i) => `note${i % 97}`).join(' ');
    return `Therefore, the answer is x${h % 10}.`;
  };
  let stop!: () => void;
  const until = new Promise<void>((r) => (stop = r));
  return new Promise((res, rej) => {
    serveCommand(serveOptionsFromFlags({ port: '0', simulate: preset, 'time-scale': String(X) }), {
      model: modelFromReply(reply, { id: 'local:fast-reply', countTokens: (t) => tokenizer.count(t) }),
      until,
      print: () => {},
      onListening: (s) => res({ url: s.url, stop }),
    }).catch(rej);
  });
}

interface PlanJson {
  calibration?: { simulate: string; outputTokens: string; fit: Record<string, unknown> };
  plan: { harness: { makespanS: number }; outputTokens: string };
}

async function planJson(args: string[]): Promise<PlanJson> {
  const r = await bench(['plan', ...runArgs, ...args, '--json']);
  if (r.code !== 0) throw new Error(`bench plan ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as PlanJson;
}

async function measure(kind: string) {
  const server = kind === 'reader' ? await readerServer() : await fastServer();
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-plan-')), 'run');
  let run;
  try {
    run = await bench([
      'run',
      ...runArgs,
      '--model',
      server.url,
      '--model-name',
      'reference-reader',
      '--no-cache',
      '--no-progress',
      '--out',
      dir,
    ]);
  } finally {
    server.stop();
  }
  if (run.code !== 0) throw new Error(`bench run failed: ${run.stderr}`);
  const calls = readFileSync(join(dir, 'calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CallRecord);
  const first = Math.min(...calls.map((c) => c.startedAt!));
  const last = Math.max(...calls.map((c) => c.startedAt! + c.latencyMs));
  const measuredS = ((last - first) / 1000) * X;
  const calibrated = await planJson(['--calibrate', dir, '--time-scale', String(X), '--simulate', preset]);
  const withOutputs = await planJson(['--simulate', preset, '--output-tokens', calibrated.calibration!.outputTokens]);
  const assumed = await planJson(['--simulate', preset]);
  return {
    server: kind,
    calls: calls.length,
    runWallS: run.wallS,
    measuredMakespanS: measuredS,
    measuredOutputs: calibrated.calibration!.outputTokens,
    calibratedSimulate: calibrated.calibration!.simulate,
    predicted: {
      presetMeasuredOutputs: withOutputs.plan.harness.makespanS,
      calibrated: calibrated.plan.harness.makespanS,
      presetAssumedOutputs: assumed.plan.harness.makespanS,
    },
  };
}

const results = [];
for (const kind of servers) results.push(await measure(kind));

const rows = [['server', 'calls', 'measured', 'preset + measured outputs', 'calibrated', 'preset + assumed outputs']];
for (const r of results) {
  const cell = (s: number) => `${s.toFixed(1)} s (${(s / r.measuredMakespanS).toFixed(3)})`;
  rows.push([
    r.server,
    String(r.calls),
    `${r.measuredMakespanS.toFixed(1)} s`,
    cell(r.predicted.presetMeasuredOutputs),
    cell(r.predicted.calibrated),
    cell(r.predicted.presetAssumedOutputs),
  ]);
}
console.log(
  `bench run ${runArgs.join(' ')} against bench serve --simulate ${preset} --time-scale ${X}: makespan in simulated seconds (prediction ÷ measured)`,
);
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const r of rows)
  console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
for (const r of results)
  console.log(
    `${r.server}: outputs ${r.measuredOutputs}; calibrated --simulate ${r.calibratedSimulate}; run wall ${r.runWallS.toFixed(1)} s`,
  );
mkdirSync(join(root, 'bench-out'), { recursive: true });
writeFileSync(resolve(root, values.out!), JSON.stringify({ runArgs, preset, timeScale: X, results }, null, 2) + '\n');
console.log(`wrote ${values.out}`);
process.exit(0);
