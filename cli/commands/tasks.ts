// `bench tasks`: what can run, with each task's default grid, sample count, metric and sampling (its protocol's
// decoding, which --temperature / --top-p override).
import type { CommandIO } from '../../harness/config/commands.js';
import { resolveDecoding } from '../../harness/protocol/decoding.js';
import type { CliContext } from '../context.js';

export async function tasksCli(_cmd: unknown, io: CommandIO, ctx: CliContext): Promise<number> {
  for (const t of (await ctx.catalog()).tasks.all()) {
    const d = resolveDecoding({}, t.decoding);
    // A task with several protocol variants lists them, the default first, each with its metric.
    const flavours = t.flavours?.length
      ? `; --flavour ${t.flavours.map((f, i) => `${f.name}${i === 0 ? ' (default)' : ''}: ${f.metric}`).join(', ')}`
      : '';
    io.out(
      `${t.name.padEnd(18)} ${t.description}  [lengths ${t.defaultLengths}, ${Number.isFinite(t.defaultSamples) ? t.defaultSamples : 'all'} samples, ${t.metric}, temperature ${d.temperature}, top-p ${d.topP}${flavours}]`,
    );
  }
  return 0;
}
