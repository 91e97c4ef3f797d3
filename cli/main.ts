// The CLI: parse, dispatch to the command's home in cli/commands/, print help. Usage errors print one line,
// never a stack trace. Commands get the built-in catalog from here (cli/context.ts), built once.
// A closed stdout or stderr (`bench report RUN | head -1`, `bench run ... 2>&1 | head -2`) is not an error: the
// first EPIPE marks that stream closed and later lines to it are dropped, as Unix tools do, while the command goes
// on (a run finishes, releases its lock and exits with its own code). A file-system error that no command turned
// into a line is worded here (harness/run-dir/io-errors.ts): one line, exit 2.
import type { Command, CommandIO } from '../harness/config/commands.js';
import { UserError, errorMessage } from '../harness/errors.js';
import { redact, redactSecrets } from '../harness/redact.js';
import { actionOf, errnoCode, fileIOError } from '../harness/run-dir/io-errors.js';
import { cliContext, type CliContext } from './context.js';
import { parseCli } from './parse.js';

/** Streams whose reader has gone (EPIPE, or any other write error: nothing more can be said there). */
const closed = new Set<NodeJS.WriteStream>();

/**
 * Keeps a write error on `stream` from crashing the process (an unhandled 'error' event): the stream is marked
 * closed and later writes to it are dropped. Every writer of the process is covered, not only `io` (progress,
 * warnings and worker threads write to process.stderr directly). Idempotent.
 */
export function guardStream(stream: NodeJS.WriteStream): void {
  if ((stream as { benchGuarded?: boolean }).benchGuarded) return;
  (stream as { benchGuarded?: boolean }).benchGuarded = true;
  stream.on('error', () => {
    closed.add(stream);
  });
}

function writeLine(stream: NodeJS.WriteStream, line: string): void {
  if (closed.has(stream) || stream.destroyed) return;
  try {
    stream.write(line + '\n');
  } catch {
    closed.add(stream);
  }
}

// No line leaves with the API key or an Authorization value in it (harness/redact.ts).
const io: CommandIO = {
  out: (line) => writeLine(process.stdout, redactSecrets(line)),
  err: (line) => writeLine(process.stderr, redact(line)),
};

type Handler = (cmd: never, io: CommandIO, ctx: CliContext) => Promise<number>;

/** Each command's module is loaded only when it runs (the run path must not pay for charts or the server). */
const COMMANDS: Record<Exclude<Command['command'], 'help' | 'version'>, () => Promise<Handler>> = {
  run: async () => (await import('./commands/run.js')).runCli,
  plan: async () => (await import('./commands/plan.js')).planCli,
  tasks: async () => (await import('./commands/tasks.js')).tasksCli,
  runs: async () => (await import('./commands/runs.js')).runsCli,
  generate: async () => (await import('./commands/generate.js')).generateCli,
  score: async () => (await import('./commands/score.js')).scoreCli,
  export: async () => (await import('./commands/export.js')).exportCli,
  report: async () => (await import('./commands/report.js')).reportCli,
  gate: async () => (await import('./commands/gate.js')).gateCli,
  compare: async () => (await import('./commands/compare.js')).compareCli,
  baseline: async () => (await import('./commands/gate.js')).baselineCli,
  merge: async () => (await import('./commands/merge.js')).mergeCli,
  serve: async () => (await import('./commands/serve.js')).serveCli,
  view: async () => (await import('./commands/view.js')).viewCli,
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
  guardStream(process.stdout);
  guardStream(process.stderr);
  try {
    return await dispatch(argv);
  } catch (caught) {
    let e = caught;
    // A file-system error with a path (a read-only mount, a file in the way, another user's directory) is the
    // user's to fix: one line naming the path, exit 2.
    const path = (e as NodeJS.ErrnoException | null)?.path;
    if (!(e instanceof UserError) && errnoCode(e) && typeof path === 'string') e = fileIOError(e, actionOf(e), path);
    if (e instanceof UserError) {
      io.err(`bench: ${e.message}`);
      return e.exitCode;
    }
    io.err(`bench: error: ${errorMessage(e)}`);
    if (process.env.BENCH_DEBUG) io.err(String((e as Error).stack));
    return 1;
  }
}
