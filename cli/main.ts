// The CLI: parse, dispatch to the command's home in cli/commands/, print help. Usage errors print one line,
// never a stack trace. Commands get the built-in catalog from here (cli/context.ts), built once.
import type { Command, CommandIO } from '../harness/config/commands.js';
import { UserError, errorMessage } from '../harness/errors.js';
import { redact, redactSecrets } from '../harness/redact.js';
import { cliContext, type CliContext } from './context.js';
import { parseCli } from './parse.js';

// No line leaves with the API key or an Authorization value in it (harness/redact.ts).
const io: CommandIO = {
  out: (line) => process.stdout.write(redactSecrets(line) + '\n'),
  err: (line) => process.stderr.write(redact(line) + '\n'),
};

type Handler = (cmd: never, io: CommandIO, ctx: CliContext) => Promise<number>;

/** Each command's module is loaded only when it runs (the run path must not pay for charts or the server). */
const COMMANDS: Record<Exclude<Command['command'], 'help' | 'version'>, () => Promise<Handler>> = {
  run: async () => (await import('./commands/run.js')).runCli,
  plan: async () => (await import('./commands/plan.js')).planCli,
  tasks: async () => (await import('./commands/tasks.js')).tasksCli,
  generate: async () => (await import('./commands/generate.js')).generateCli,
  score: async () => (await import('./commands/score.js')).scoreCli,
  export: async () => (await import('./commands/export.js')).exportCli,
  report: async () => (await import('./commands/report.js')).reportCli,
  gate: async () => (await import('./commands/gate.js')).gateCli,
  compare: async () => (await import('./commands/compare.js')).compareCli,
  baseline: async () => (await import('./commands/gate.js')).baselineCli,
  merge: async () => (await import('./commands/merge.js')).mergeCli,
  serve: async () => (await import('./commands/serve.js')).serveCli,
};

async function dispatch(argv: string[]): Promise<number> {
  const cmd = parseCli(argv);
  if (cmd.command === 'help') {
    const { helpText } = await import('./help.js');
    io.out(helpText(cmd.topic));
    return 0;
  }
  if (cmd.command === 'version') {
    const { packageVersion } = await import('../harness/paths.js');
    io.out(packageVersion());
    return 0;
  }
  const handler = await COMMANDS[cmd.command]();
  return handler(cmd as never, io, cliContext());
}

/** Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    if (e instanceof UserError) {
      io.err(`bench: ${e.message}`);
      return e.exitCode;
    }
    io.err(`bench: error: ${errorMessage(e)}`);
    if (process.env.BENCH_DEBUG) io.err(String((e as Error).stack));
    return 1;
  }
}
