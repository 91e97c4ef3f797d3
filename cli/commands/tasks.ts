// `bench tasks`: what can run, with each task's default grid, sample count, metric and sampling (its protocol's
// decoding, which --temperature / --top-p override). `--json`: the same as one JSON document.
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { resolveDecoding } from '../../harness/protocol/decoding.js';
import type { Catalog } from '../../harness/registry/family.js';
import type { TaskDefinition } from '../../harness/types.js';
import type { CliContext } from '../context.js';
import { groupLines, groupsOf, samplesText } from './task-list.js';

/** One task as `bench tasks --json` lists it; samples is null where the task runs every sample it has. */
export function taskEntry(t: TaskDefinition, catalog: Pick<Catalog, 'groups'>) {
  const d = resolveDecoding({}, t.decoding);
  const bundled = t.bundled?.();
  return {
    name: t.name,
    description: t.description,
    lengths: t.defaultLengths,
    samples: Number.isFinite(t.defaultSamples) ? t.defaultSamples : null,
    bundled: bundled
      ? { rows: bundled.rows, fixture: Boolean(bundled.fixture), ...(bundled.source ? { source: bundled.source } : {}) }
      : null,
    groups: groupsOf(t.name, catalog),
    metric: t.metric,
    temperature: d.temperature,
    topP: d.topP,
    flavours: (t.flavours ?? []).map((f) => ({ name: f.name, metric: f.metric })),
  };
}

export async function tasksCli(cmd: CommandOf<'tasks'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const catalog = await ctx.catalog();
  const tasks = catalog.tasks.all();
  if (cmd.json) {
    const entries = tasks.map((t) => taskEntry(t, catalog));
    io.out(
      JSON.stringify(
        {
          command: 'tasks',
          tasks: entries,
          groups: catalog.groups.all().map((g) => ({ name: g.name, tasks: g.tasks })),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  for (const t of tasks) {
    const e = taskEntry(t, catalog);
    // A task with several protocol variants lists them, the default first, each with its metric.
    const flavours = e.flavours.length
      ? `; --flavour ${e.flavours.map((f, i) => `${f.name}${i === 0 ? ' (default)' : ''}: ${f.metric}`).join(', ')}`
      : '';
    io.out(
      `${e.name.padEnd(18)} ${e.description}  [${e.groups.length ? `group ${e.groups.join(', ')}; ` : ''}lengths ${e.lengths}, ${samplesText(t)}, ${e.metric}, temperature ${e.temperature}, top-p ${e.topP}${flavours}]`,
    );
  }
  for (const line of groupLines(catalog)) io.out(line);
  return 0;
}
