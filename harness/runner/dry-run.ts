import type { RunConfig } from '../config/run-config.js';
import { methods as registry, planTotals } from '../methods/index.js';
import type { LengthTarget, PreparedTask, TaskDefinition } from '../types.js';
import { sampleIndices } from './plan.js';

/** Per (task, length, method): what a run would send, without calling any model. */
export interface DryRunRow {
  task: string;
  length: string;
  method: string;
  samples: number;
  contextTokens: number;
  calls: number;
  /** Upper bound: every call's prompt at its largest (full memory, template overhead). */
  promptTokensMax: number;
  /** Upper bound: every call generating its max_tokens. */
  completionTokensMax: number;
}

/** What the planners know of one built sample (for `bench plan`, which needs each sample's calls, not only sums). */
export interface BuiltSampleSize {
  task: string;
  length: LengthTarget;
  index: number;
  contextTokens: number;
  maxNewTokens?: number;
}

/** Builds every sample (cheap: contexts are cached token ids) and sums each method's planned calls over them;
 *  `onSample` sees each built sample's size. */
export function dryRunRows(
  tasks: TaskDefinition[],
  prepared: PreparedTask[],
  grids: LengthTarget[][],
  config: RunConfig,
  onSample?: (s: BuiltSampleSize) => void,
): DryRunRow[] {
  const rows: DryRunRow[] = [];
  for (let t = 0; t < tasks.length; t++) {
    for (const length of grids[t]) {
      const sizes = sampleIndices(tasks[t], prepared[t], length, config).map((i) => {
        const s = prepared[t].build(length, i);
        const size = { contextTokens: s.context.tokenCount, maxNewTokens: s.prompt?.maxNewTokens };
        onSample?.({ task: tasks[t].name, length, index: i, ...size });
        return size;
      });
      const contextTokens = sizes.reduce((a, s) => a + s.contextTokens, 0);
      for (const method of config.methods) {
        const def = registry.get(method);
        const row: DryRunRow = {
          task: tasks[t].name,
          length: length.label,
          method,
          samples: sizes.length,
          contextTokens,
          calls: 0,
          promptTokensMax: 0,
          completionTokensMax: 0,
        };
        for (const s of sizes) {
          const totals = planTotals(def.plan(s, config.methodSettings));
          row.calls += totals.calls;
          row.promptTokensMax += totals.promptTokensMax;
          row.completionTokensMax += totals.completionTokensMax;
        }
        rows.push(row);
      }
    }
  }
  return rows;
}

export function formatDryRun(rows: DryRunRow[]): string {
  const head = [
    'task',
    'length',
    'method',
    'samples',
    'context tokens',
    'calls',
    'prompt tokens (max)',
    'completion tokens (max)',
  ];
  const body = rows.map((r) =>
    [r.task, r.length, r.method, r.samples, r.contextTokens, r.calls, r.promptTokensMax, r.completionTokensMax].map(
      (x) => (typeof x === 'number' ? x.toLocaleString('en-US') : x),
    ),
  );
  const total = rows.reduce(
    (a, r) => ({
      calls: a.calls + r.calls,
      prompt: a.prompt + r.promptTokensMax,
      completion: a.completion + r.completionTokensMax,
    }),
    { calls: 0, prompt: 0, completion: 0 },
  );
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((row) => String(row[i]).length)));
  const line = (row: (string | number)[]) =>
    row.map((c, i) => (i < 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...body.map(line),
    '',
    `total: ${total.calls.toLocaleString('en-US')} calls, at most ${total.prompt.toLocaleString('en-US')} prompt and ${total.completion.toLocaleString('en-US')} completion tokens (dry run: no model was called)`,
  ].join('\n');
}
