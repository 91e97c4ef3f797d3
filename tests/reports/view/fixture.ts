// A run directory for the bench view tests, written by hand: two methods over the same samples, a memory trace of
// 60 chunks for one MemAgent sample (the gold enters at chunk 12 and leaves at chunk 40), hostile model output in a
// prediction and a memory, a chart, and a symlink that leads out of the directory.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryHash, type MemoryTraceLine } from '../../../harness/memory/trace-line.js';
import { retention } from '../../../harness/memory/retention.js';
import { MemoryTraceEncoder } from '../../../harness/memory/trace-codec.js';
import { splitSegments } from '../../../harness/memory/memory-delta.js';
import type { SampleRecord } from '../../../harness/types.js';
import { record } from '../fixtures.js';

export const HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><b>bold</b>';
export const CHUNKS = 60;
export const LONG_ID = 'ruler-hqa/32k/0';

function memoryAt(chunk: number): string {
  const facts = [`Fact ${Math.floor(chunk / 5)} kept from the reading.`];
  if (chunk >= 12 && chunk < 40) facts.push('The author is Alice Liddell.');
  if (chunk === 20) facts.push(HOSTILE);
  return facts.join('\n');
}

export function viewFixture(): { dir: string; outside: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-view-'));
  const holds = Array.from({ length: CHUNKS }, (_, c) => (c >= 12 && c < 40 ? '1' : '0')).join('');
  const records: SampleRecord[] = [];
  for (const method of ['memagent', 'full-context'])
    for (let index = 0; index < 30; index++) {
      const memagent = method === 'memagent';
      records.push(
        record({
          id: `ruler-hqa/32k/${index}`,
          method,
          index,
          lengthLabel: '32k',
          length: 32768,
          builtTokens: 300_000,
          question: `Who wrote book ${index}?`,
          answers: ['Alice Liddell'],
          prediction: index === 3 && !memagent ? HOSTILE : index % 4 === 0 ? 'Bob' : 'Alice Liddell',
          score: index % 4 === 0 ? 0 : 1,
          status: index === 5 && memagent ? 'error' : 'ok',
          ...(index === 5 && memagent ? { error: 'HTTP 500 <b>from server</b>' } : {}),
          // Sample 7 is as a LongBench record is: no evidence, a note saying why (hostile, to be escaped).
          ...(index === 7
            ? { evidenceNote: 'This row names no evidence <b>at all</b>.' }
            : { evidence: [{ label: 'supporting paragraph (Document 7)', start: 61_000, end: 61_400 }] }),
          ...(memagent ? { memory: retention(index === 0 ? holds : '0', [12]) } : {}),
        }),
      );
    }
  writeFileSync(join(dir, 'samples.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const lines: MemoryTraceLine[] = [];
  // Encoded as a run writes them: keyframes, edits and unchanged lines.
  const encoder = new MemoryTraceEncoder();
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    const memory = memoryAt(chunk);
    lines.push({
      sampleId: LONG_ID,
      method: 'memagent',
      chunk,
      tokens: memory.length,
      hash: memoryHash(memory),
      ...encoder.encode(chunk, memory, splitSegments(memory)),
      gold: [holds[chunk] === '1'],
      holds: holds[chunk] === '1',
    });
  }
  writeFileSync(join(dir, 'memory.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  mkdirSync(join(dir, 'charts'));
  // A 1×1 PNG.
  writeFileSync(
    join(dir, 'charts', 'accuracy-ruler-hqa-double.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  writeFileSync(
    join(dir, 'charts', 'accuracy-ruler-hqa.caption.txt'),
    `ruler-hqa: accuracy vs context length\n${HOSTILE}`,
  );
  const outside = mkdtempSync(join(tmpdir(), 'bench-view-outside-'));
  writeFileSync(join(outside, 'secret.png'), 'not for the view');
  symlinkSync(join(outside, 'secret.png'), join(dir, 'charts', 'leak.png'));
  return { dir, outside };
}
