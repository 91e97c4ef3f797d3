// `bench tasks`: what can run, with each task's default grid, sample count, metric and sampling (its protocol's
// decoding, which --temperature / --top-p override). `--json`: the same as one JSON document.
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { resolveDecoding } from '../../harness/protocol/decoding.js';
import type { TaskDefinition } from '../../harness/types.js';
import type { CliContext } from '../context.js';

/** One task as `bench tasks --json` lists it; samples is null where the task runs every sample it has. */
export function taskEntry(t: TaskDefinition) {
  const d = resolveDecoding({}, t.decoding);
  return {
    name: t.name,
    description: t.description,
    lengths: t.defaultLengths,
    samples: Number.isFinite(t.defaultSamples) ? t.defaultSamples : null,
    metric: t.metric,
    temperature: d.temperature,
    topP: d.topP,
  };
}

export async function tasksCli(cmd: CommandOf<'tasks'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const entries = (await ctx.catalog()).tasks.all().map(taskEntry);
  if (cmd.json) {
    io.out(JSON.stringify({ command: 'tasks', tasks: entries }, null, 2));
    return 0;
  }
  for (const e of entries)
    io.out(
      `${e.name.padEnd(18)} ${e.description}  [lengths ${e.lengths}, ${e.samples ?? 'all'} samples, ${e.metric}, temperature ${e.temperature}, top-p ${e.topP}]`,
    );
  return 0;
}
