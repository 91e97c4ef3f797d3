// `bench tasks`: what can run, with each task's default grid, sample count and metric.
import type { CommandIO } from '../../harness/config/commands.js';
import type { CliContext } from '../context.js';

export async function tasksCli(_cmd: unknown, io: CommandIO, ctx: CliContext): Promise<number> {
  for (const t of (await ctx.catalog()).tasks.all())
    io.out(
      `${t.name.padEnd(18)} ${t.description}  [lengths ${t.defaultLengths}, ${Number.isFinite(t.defaultSamples) ? t.defaultSamples : 'all'} samples, ${t.metric}]`,
    );
  return 0;
}
