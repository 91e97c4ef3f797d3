import { setMaxListeners } from 'node:events';
import { UserError, errorMessage } from '../errors.js';
import type { RunConfig } from './parse.js';
import { parseCli } from './parse.js';
import { HELP } from './help.js';
import type { Model, Tokenizer } from '../types.js';

const out = (line: string) => process.stdout.write(line + '\n');
const err = (line: string) => process.stderr.write(line + '\n');

async function createModel(config: RunConfig, tokenizer: Tokenizer): Promise<Model> {
  if (config.model === 'local') {
    const { createLocalModel } = await import('../models/local-model.js');
    return createLocalModel(tokenizer);
  }
  const { createEndpointModel } = await import('../models/factory.js');
  return createEndpointModel(config, tokenizer);
}

async function dispatch(argv: string[]): Promise<number> {
  const cmd = parseCli(argv);
  switch (cmd.command) {
    case 'help':
      out(HELP);
      return 0;
    case 'version': {
      const { packageVersion } = await import('../paths.js');
      out(packageVersion());
      return 0;
    }
    case 'tasks': {
      const { allTasks } = await import('../tasks.js');
      for (const t of allTasks()) out(`${t.name.padEnd(18)} ${t.description}  [lengths ${t.defaultLengths}, ${t.defaultSamples} samples, ${t.metric}]`);
      return 0;
    }
    case 'run': {
      const { executeRun } = await import('../runner/runner.js');
      const controller = new AbortController();
      // Every in-flight request listens on this one signal; hundreds in flight are expected, not a leak.
      setMaxListeners(0, controller.signal);
      let interrupts = 0;
      const onSignal = () => {
        interrupts++;
        if (interrupts > 1) process.exit(130);
        err('\ninterrupt: finishing the samples in flight is skipped; finished samples are saved. Press Ctrl-C again to quit now.');
        controller.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const result = await executeRun(cmd.config, { log: out, createModel, signal: controller.signal });
        return result.exitCode;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    }
    default:
      return dispatchOther(cmd);
  }
}

async function dispatchOther(cmd: ReturnType<typeof parseCli>): Promise<number> {
  const { runOtherCommand } = await import('./commands.js');
  return runOtherCommand(cmd, out, err);
}

/** The CLI: returns the exit code. Usage errors print one line, never a stack trace. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    if (e instanceof UserError) {
      err(`bench: ${e.message}`);
      return e.exitCode;
    }
    err(`bench: error: ${errorMessage(e)}`);
    if (process.env.BENCH_DEBUG) err(String((e as Error).stack));
    return 1;
  }
}
