import type { RunConfig } from '../cli/parse.js';
import type { LengthTarget, PreparedTask, TaskDefinition } from '../types.js';

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

/** Template and question overhead allowed per call in the estimate (MemAgent's update template is ~120 tokens). */
const OVERHEAD = 256;

export function dryRunRows(tasks: TaskDefinition[], prepared: PreparedTask[], grids: LengthTarget[][], config: RunConfig): DryRunRow[] {
  const rows: DryRunRow[] = [];
  for (let t = 0; t < tasks.length; t++) {
    for (const length of grids[t]) {
      const n = Math.min(config.samples ?? tasks[t].defaultSamples, prepared[t].maxSamples(length));
      const indices = [...Array(n).keys()].filter((i) => !config.shard || i % config.shard.count === config.shard.index);
      const sizes = indices.map((i) => {
        const s = prepared[t].build(length, i);
        return { tokens: s.context.tokenCount, maxNew: s.prompt?.maxNewTokens };
      });
      const contextTokens = sizes.reduce((a, s) => a + s.tokens, 0);
      for (const method of config.methods) {
        let calls = 0;
        let prompt = 0;
        let completion = 0;
        for (const s of sizes) {
          if (method === 'memagent') {
            const updates = Math.ceil(s.tokens / config.chunkTokens);
            calls += updates + 1;
            prompt += s.tokens + (updates + 1) * (OVERHEAD + config.memoryTokens);
            completion += (updates + 1) * config.memoryTokens;
          } else {
            calls += 1;
            prompt += Math.min(s.tokens + OVERHEAD, config.maxContext);
            completion += s.maxNew ?? 10000;
          }
        }
        rows.push({ task: tasks[t].name, length: length.label, method, samples: sizes.length, contextTokens, calls, promptTokensMax: prompt, completionTokensMax: completion });
      }
    }
  }
  return rows;
}

export function formatDryRun(rows: DryRunRow[]): string {
  const head = ['task', 'length', 'method', 'samples', 'context tokens', 'calls', 'prompt tokens (max)', 'completion tokens (max)'];
  const body = rows.map((r) => [r.task, r.length, r.method, r.samples, r.contextTokens, r.calls, r.promptTokensMax, r.completionTokensMax].map((x) => (typeof x === 'number' ? x.toLocaleString('en-US') : x)));
  const total = rows.reduce((a, r) => ({ calls: a.calls + r.calls, prompt: a.prompt + r.promptTokensMax, completion: a.completion + r.completionTokensMax }), { calls: 0, prompt: 0, completion: 0 });
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((row) => String(row[i]).length)));
  const line = (row: (string | number)[]) => row.map((c, i) => (i < 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line), '',
    `total: ${total.calls.toLocaleString('en-US')} calls, at most ${total.prompt.toLocaleString('en-US')} prompt and ${total.completion.toLocaleString('en-US')} completion tokens (dry run: no model was called)`].join('\n');
}
