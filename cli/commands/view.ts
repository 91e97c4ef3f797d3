// `bench view [RUN...] [--port P]`: loads the run directories, serves them on 127.0.0.1 (reports/view/server.ts),
// prints the URL on one line and runs until SIGINT/SIGTERM.
import { UserError, errorMessage } from '../../harness/errors.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import type { ReportFacet } from '../../harness/report/facet.js';
import { plural } from '../../harness/util/plural.js';
import { loadViewRun, runDirsUnder, type ViewRun } from '../../reports/view/run-data.js';
import { startView, type RunningView } from '../../reports/view/server.js';
import type { CliContext } from '../context.js';

export interface ViewDeps {
  /** Resolves when the server should stop. Default: the first SIGINT or SIGTERM. */
  until?: Promise<void>;
  onListening?: (view: RunningView) => void;
}

function nextSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function loadViewRuns(dirs: string[], facets: readonly ReportFacet[]): Promise<ViewRun[]> {
  const given = dirs.length ? dirs : runDirsUnder('runs');
  if (given.length === 0)
    throw new UserError('bench view: no run directories under runs/; pass them: bench view RUN_DIR...');
  const runs: ViewRun[] = [];
  for (const [i, dir] of given.entries()) runs.push(await loadViewRun(dir, i, facets));
  return runs;
}

export async function viewCommand(
  cmd: CommandOf<'view'>,
  io: CommandIO,
  facets: readonly ReportFacet[],
  deps: ViewDeps = {},
): Promise<number> {
  const runs = await loadViewRuns(cmd.runDirs, facets);
  for (const run of runs) for (const w of run.warnings) io.err(`warning: ${w}`);
  let view: RunningView;
  try {
    view = await startView(runs, cmd.port);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UserError(`port ${cmd.port} on 127.0.0.1 is in use: pick another with --port (0 = any free port)`);
    if (code === 'EACCES') throw new UserError(`no permission to listen on port ${cmd.port}: use a port above 1023`);
    throw new UserError(`cannot start bench view: ${errorMessage(err)}`);
  }
  deps.onListening?.(view);
  io.out(`bench view: ${view.url} (${plural(runs.length, 'run')}; Ctrl-C to stop)`);
  // Index the memory traces now, while the user opens the page, not on their first click on a sample.
  setImmediate(() => {
    for (const run of runs) run.memory();
  });
  await (deps.until ?? nextSignal());
  await view.close();
  return 0;
}

export async function viewCli(cmd: CommandOf<'view'>, io: CommandIO, ctx: CliContext): Promise<number> {
  return viewCommand(cmd, io, (await ctx.catalog()).reportFacets.all());
}
