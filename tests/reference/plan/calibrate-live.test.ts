// End to end: a short `bench run` against `bench serve --simulate qwen2.5-7b-h100 --time-scale 4`, then
// `bench plan --calibrate` on its run directory recovers the preset's prefill rate and step time within 15%.
//
// The server is `bench serve`'s own entry (serveCommand with the --simulate/--time-scale flags), in this process, with
// one change: the embedded reader is swapped for a reply function that costs microseconds. The reader's CPU time
// (tens of ms per 5,000-token prompt on a busy machine, spent before the simulated delay starts) would otherwise add
// a prompt-proportional delay that no timing model of the GPU contains. Accuracy figures for the bench and the
// real-reader server: `npm run bench:plan`. No assertion here is on the wall clock itself: the fit is.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveCommand } from '../../../cli/commands/serve.js';
import { serveOptionsFromFlags } from '../../../reference/serve/options.js';
import { modelFromReply } from '../../../reference/serve/reply-model.js';
import { gpuParams, parseSimulateSpec } from '../../../reference/simulator/gpu-params.js';
import type { ChatMessage } from '../../../harness/types.js';
import { runBench } from '../../helpers/cli.js';

const TIME_SCALE = 4;

/** Memory updates of 200..899 words and one-line answers, chosen by a hash of the prompt (deterministic). */
function reply(messages: ChatMessage[]): string {
  const prompt = messages[messages.length - 1].content;
  const h = createHash('sha256').update(prompt).digest().readUInt32LE(0);
  if (prompt.includes('<section>')) return Array.from({ length: 200 + (h % 700) }, (_, i) => `note${i % 97}`).join(' ');
  return `Therefore, the answer is x${h % 10}.`;
}

test(
  'bench plan --calibrate recovers prefill-tps and step-ms of the simulated server within 15%',
  { timeout: 240_000 },
  async () => {
    let stop!: () => void;
    const until = new Promise<void>((resolve) => (stop = resolve));
    let url = '';
    const listening = new Promise<void>((resolve, reject) => {
      serveCommand(
        serveOptionsFromFlags({ port: '0', simulate: 'qwen2.5-7b-h100', 'time-scale': String(TIME_SCALE) }),
        {
          model: modelFromReply(reply, { id: 'local:fast-reply' }),
          until,
          print: () => {},
          onListening: (server) => {
            url = server.url;
            resolve();
          },
        },
      ).catch(reject);
    });
    await listening;
    const out = join(mkdtempSync(join(tmpdir(), 'bench-calibrate-live-')), 'run');
    try {
      // Memory chains (3-4 calls, decode-heavy) beside one-shot full-context calls (prefill-heavy), all in flight at once.
      const run = await runBench(
        [
          'run',
          'ruler-hqa',
          '--lengths',
          'docs:50..100',
          '--samples',
          '8',
          '--method',
          'memagent,full-context',
          '--concurrency',
          '64',
          '--model',
          url,
          '--model-name',
          'reference-reader',
          '--no-cache',
          '--no-progress',
          '--out',
          out,
        ],
        { timeoutMs: 200_000 },
      );
      assert.equal(run.code, 0, run.stderr);
    } finally {
      stop();
    }
    const plan = await runBench(['plan', '--calibrate', out, '--time-scale', String(TIME_SCALE), '--json']);
    assert.equal(plan.code, 0, plan.stderr);
    const { calibration } = JSON.parse(plan.stdout) as {
      calibration: {
        simulate: string;
        fit: { prefillTokensPerS: number; stepBaseMs: number; stepPerSeqMs: number; fitted: number };
      };
    };
    const truth = gpuParams('qwen2.5-7b-h100');
    const fit = calibration.fit;
    const ratios = {
      prefill: fit.prefillTokensPerS / truth.prefillTokensPerS,
      step: fit.stepBaseMs / truth.stepBaseMs,
      perSeq: fit.stepPerSeqMs / truth.stepPerSeqMs,
    };
    const shown = `${JSON.stringify(ratios)} from ${fit.fitted} calls`;
    assert.ok(Math.abs(ratios.prefill - 1) <= 0.15, `prefill-tps off by more than 15%: ${shown}`);
    assert.ok(Math.abs(ratios.step - 1) <= 0.15, `step-ms off by more than 15%: ${shown}`);
    // The printed --simulate value is reusable as it stands.
    const reused = parseSimulateSpec(calibration.simulate);
    assert.ok(Math.abs(reused.prefillTokensPerS / fit.prefillTokensPerS - 1) < 1e-3, calibration.simulate);
  },
);
