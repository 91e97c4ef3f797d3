import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LongBenchRow } from '../../../generators/longbench/load.js';

export function row(dataset: string, i: number, over: Partial<LongBenchRow> = {}): LongBenchRow {
  return {
    input: `question ${i} about item ${i}?`,
    context: `Passage 1:\nItem ${i}\nItem ${i} is kept in room ${100 + i}. It was moved there in ${1990 + i}.`,
    answers: [`room ${100 + i}`],
    length: 20 + i,
    dataset,
    language: 'en',
    all_classes: null,
    _id: `id-${dataset}-${i}`,
    ...over,
  };
}

export function jsonl(rows: unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** A fresh temp directory holding `files` (name → text); subfolders are created. */
export function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'longbench-test-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
