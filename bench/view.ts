// bench view on the largest cell of the main sweep: a 3.5M-token run directory (ruler-hqa at 3.5m, MemAgent's
// 5,000-token chunks: 735 memory updates per sample, each memory ~1,024 tokens of notes of which one or two change at
// every step, encoded as a run writes them: keyframes and edits, harness/memory/trace-codec.ts). Measures the time to
// load the runs, the first sample page (which indexes memory.jsonl), a warm sample page, a page in the middle and the
// last page of steps (rebuilt from their keyframes), the cell's sample table and side by side, over real HTTP.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadViewRuns } from '../cli/commands/view.js';
import { builtinCatalog } from '../generators/index.js';
import { memoryHash } from '../harness/memory/trace-line.js';
import { MemoryTraceEncoder } from '../harness/memory/trace-codec.js';
import { splitSegments } from '../harness/memory/memory-delta.js';
import { retention } from '../harness/memory/retention.js';
import type { SampleRecord } from '../harness/types.js';
import { startView } from '../reports/view/server.js';
import { STEPS_PER_PAGE } from '../reports/view/pages.js';

const { values } = parseArgs({ options: { samples: { type: 'string' } } });
const SAMPLES = Number(values.samples ?? 16);
const TOKENS = 3_670_016;
const CHUNK = 5000;
const UPDATES = Math.ceil(TOKENS / CHUNK);
const WORDS = ['memory', 'Alice', 'wrote', 'Paris', 'in', '1987', 'the', 'document', 'says', 'that', 'river', 'bank'];

/** ~1,024 tokens of notes: a status line that changes at every step, then 30 notes of ~25 words, the oldest
 *  dropped and a new one added every other step. */
function memoryAt(sample: number, step: number): string {
  const notes = [`>> step ${step}: reading chunk ${step} of the document for sample ${sample}.`];
  const first = Math.floor(step / 2);
  for (let n = first; n < first + 30; n++) {
    const words: string[] = [];
    for (let i = 0; i < 25; i++) words.push(WORDS[(n * 7 + i * 3 + sample) % WORDS.length]);
    notes.push(`#${n} ${words.join(' ')}.`);
  }
  if (step >= 100) notes.push('The author is Alice Liddell.');
  return notes.join('\n');
}

function record(index: number, method: string, holds: string): SampleRecord {
  return {
    id: `ruler-hqa/3.5m/${index}`,
    task: 'ruler-hqa',
    taskVersion: '1',
    method,
    model: 'local:bench-view',
    lengthLabel: '3.5m',
    lengthKind: 'tokens',
    length: TOKENS,
    index,
    builtTokens: TOKENS - 100,
    question: 'Who wrote the book?',
    answers: ['Alice Liddell'],
    prediction: 'Alice Liddell',
    rawOutput: 'The answer is Alice Liddell.',
    metric: 'sub_em',
    score: 1,
    scores: { sub_em: 1 },
    status: 'ok',
    calls: method === 'memagent' ? UPDATES + 1 : 1,
    usage: { promptTokens: 1, completionTokens: 1 },
    elapsedMs: 1,
    metadata: {},
    evidence: [{ label: 'supporting paragraph', start: 100 * CHUNK + 10, end: 100 * CHUNK + 200 }],
    ...(method === 'memagent' ? { memory: retention(holds, [100]) } : {}),
  };
}

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: Math.round((performance.now() - t) * 10) / 10, value };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-view-bench-'));
  try {
    const holds = Array.from({ length: UPDATES }, (_, c) => (c >= 100 ? '1' : '0')).join('');
    const records = [
      ...Array.from({ length: SAMPLES }, (_, i) => record(i, 'memagent', holds)),
      ...Array.from({ length: SAMPLES }, (_, i) => record(i, 'full-context', '')),
    ];
    writeFileSync(join(dir, 'samples.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const fd = openSync(join(dir, 'memory.jsonl'), 'w');
    for (let s = 0; s < SAMPLES; s++) {
      const encoder = new MemoryTraceEncoder();
      for (let c = 0; c < UPDATES; c++) {
        const memory = memoryAt(s, c);
        const line = {
          sampleId: `ruler-hqa/3.5m/${s}`,
          method: 'memagent',
          chunk: c,
          tokens: 1024,
          hash: memoryHash(memory),
          ...encoder.encode(c, memory, splitSegments(memory)),
          gold: [c >= 100],
          holds: c >= 100,
        };
        writeSync(fd, JSON.stringify(line) + '\n');
      }
    }
    closeSync(fd);
    const bytes = statSync(join(dir, 'memory.jsonl')).size;
    const facets = builtinCatalog().reportFacets.all();
    const load = await time(() => loadViewRuns([dir], facets));
    const view = await startView(load.value, 0);
    const get = (path: string) =>
      time(async () => {
        const res = await fetch(view.url + path.slice(1));
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        return text.length;
      });
    const id = encodeURIComponent(`ruler-hqa/${'3.5m'}/${Math.floor(SAMPLES / 2)}`);
    const sample = `/run/0/sample?id=${id}&method=memagent`;
    const lastPage = Math.floor((UPDATES - 1) / STEPS_PER_PAGE) * STEPS_PER_PAGE;
    const rows: Array<[string, { ms: number; value: number }]> = [
      ['sample page, first (indexes memory.jsonl)', await get(sample)],
      ['sample page, again', await get(sample)],
      ['sample page, middle steps', await get(`${sample}&from=${STEPS_PER_PAGE * 14}`)],
      ['sample page, last steps', await get(`${sample}&from=${lastPage}`)],
      [
        'sample page, another sample',
        await get(`/run/0/sample?id=${encodeURIComponent('ruler-hqa/3.5m/0')}&method=memagent`),
      ],
      ['cell sample table', await get('/run/0/cell?task=ruler-hqa&length=3.5m&method=memagent')],
      ['side by side', await get(`/compare?id=${id}&a=0:memagent&b=0:full-context`)],
      ['run list', await get('/')],
    ];
    await view.close();
    const result = {
      samples: SAMPLES,
      updatesPerSample: UPDATES,
      stepsPerPage: STEPS_PER_PAGE,
      memoryJsonlBytes: bytes,
      loadRunsMs: load.ms,
      pages: Object.fromEntries(rows.map(([name, r]) => [name, { ms: r.ms, htmlChars: r.value }])),
    };
    console.log(
      `bench view, ${SAMPLES} MemAgent samples at 3.5m (${UPDATES} memory updates each), memory.jsonl ${(bytes / 1e6).toFixed(1)} MB`,
    );
    console.log(`load the run: ${load.ms} ms`);
    for (const [name, r] of rows) console.log(`${name.padEnd(44)} ${String(r.ms).padStart(8)} ms  ${r.value} chars`);
    mkdirSync('bench-out', { recursive: true });
    writeFileSync(join('bench-out', 'view.json'), JSON.stringify(result, null, 2) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
