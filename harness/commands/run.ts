// `bench run`: Ctrl-C / SIGTERM handling, the model, the runner, and everything the user reads about the run.
import { setMaxListeners } from 'node:events';
import type { CommandIO, CommandOf } from '../config/commands.js';
import { createModel } from '../models/factory.js';
import { formatDryRun } from '../runner/dry-run.js';
import { executeRun, type RunEvent, type RunOutcome } from '../runner/runner.js';
import { formatSummaryTable } from '../../reports/summary.js';

export function describeEvent(e: RunEvent): string {
  switch (e.type) {
    case 'skipped':
      return `skipping ${e.task}: ${e.reason}`;
    case 'grid':
      return `${e.task}: lengths ${e.lengths.join(', ')} (${e.lengths.length} points)${e.data ? `; ${e.data}` : ''}`;
    case 'resuming':
      return `resuming: ${e.finished} of ${e.total} samples already finished in ${e.dir}`;
  }
}

/** The lines printed after a run, and its exit code. */
export function describeOutcome(outcome: RunOutcome): { lines: string[]; exitCode: number } {
  if (outcome.kind === 'dry-run') return { lines: [formatDryRun(outcome.rows)], exitCode: 0 };
  const c = outcome.calls;
  const lines = [
    '',
    formatSummaryTable(outcome.summary),
    `this invocation: ${c.calls} model calls, ${c.retries} retries, ${c.cached} from cache, ${c.failed} failed; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  ];
  if (outcome.referenceReader) lines.push('model: embedded reference reader (lexical, deterministic; not an LLM)');
  lines.push(`results: ${outcome.outDir}`);
  if (outcome.interrupted) {
    lines.push(`interrupted: ${outcome.records.length} of ${outcome.units} samples finished; run the same command again to resume`);
    return { lines, exitCode: 130 };
  }
  return { lines, exitCode: 0 };
}

export async function runCli(cmd: CommandOf<'run'>, io: CommandIO): Promise<number> {
  const controller = new AbortController();
  // Every in-flight request listens on this one signal; hundreds in flight are expected, not a leak.
  setMaxListeners(0, controller.signal);
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    io.err('\ninterrupt: no new samples start; finished samples are saved. Press Ctrl-C again to quit now.');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await executeRun(cmd.config, { createModel, onEvent: (e) => io.out(describeEvent(e)), signal: controller.signal });
    const { lines, exitCode } = describeOutcome(outcome);
    for (const l of lines) io.out(l);
    return exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
