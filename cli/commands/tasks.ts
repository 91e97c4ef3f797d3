// `bench tasks`: what can run, with each task's default grid, sample count, metric and sampling (its protocol's
// decoding, which --temperature / --top-p override).
import type { CommandIO } from '../../harness/config/commands.js';
import { resolveDecoding } from '../../harness/protocol/decoding.js';
import type { CliContext } from '../context.js';
import { groupLines, groupsOf, samplesText } from './task-list.js';

export async function tasksCli(_cmd: unknown, io: CommandIO, ctx: CliContext): Promise<number> {
  const catalog = await ctx.catalog();
  for (const t of catalog.tasks.all()) {
    const d = resolveDecoding({}, t.decoding);
    const groups = groupsOf(t.name, catalog);
    io.out(
      `${t.name.padEnd(18)} ${t.description}  [${groups.length ? `group ${groups.join(', ')}; ` : ''}lengths ${t.defaultLengths}, ${samplesText(t)}, ${t.metric}, temperature ${d.temperature}, top-p ${d.topP}]`,
    );
  }
  for (const line of groupLines(catalog)) io.out(line);
  return 0;
}
