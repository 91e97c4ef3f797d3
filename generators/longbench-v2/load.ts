// LongBench v2's rows (HF THUDM/LongBench-v2 `data.json`): a JSON array of items, or one item per line.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetMissingError, UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';
import { decodeTextBytes } from '../../harness/text-file.js';

export interface V2Row {
  _id: string;
  domain: string;
  sub_domain: string;
  difficulty: 'easy' | 'hard';
  /** short (< 32k words), medium (32k-128k), long (> 128k), as LongBench v2 labels its items. */
  length: 'short' | 'medium' | 'long';
  question: string;
  choice_A: string;
  choice_B: string;
  choice_C: string;
  choice_D: string;
  answer: 'A' | 'B' | 'C' | 'D';
  context: string;
}

export interface V2Data {
  rows: V2Row[];
  file: string;
  sha256: string;
  fixture: boolean;
}

export const V2_FIELDS = [
  '_id',
  'domain',
  'sub_domain',
  'difficulty',
  'length',
  'question',
  'choice_A',
  'choice_B',
  'choice_C',
  'choice_D',
  'answer',
  'context',
] as const;

/** The bundled synthetic fixture (datasets/longbench-v2/README.md). */
export function v2FixturePath(): string {
  return datasetPath('longbench-v2', 'fixture.json');
}

/** What is wrong with one item, or the row. */
export function toV2Row(value: unknown): V2Row | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const r = value as Record<string, unknown>;
  for (const key of V2_FIELDS) {
    if (!(key in r)) return `missing field "${key}"`;
    if (typeof r[key] !== 'string')
      return `field "${key}" must be a string, got ${JSON.stringify(r[key])?.slice(0, 40)}`;
  }
  if (r.difficulty !== 'easy' && r.difficulty !== 'hard')
    return `field "difficulty" must be "easy" or "hard", got ${JSON.stringify(r.difficulty)}`;
  if (!['short', 'medium', 'long'].includes(r.length as string))
    return `field "length" must be "short", "medium" or "long", got ${JSON.stringify(r.length)}`;
  if (!['A', 'B', 'C', 'D'].includes(r.answer as string))
    return `field "answer" must be one of A, B, C, D, got ${JSON.stringify(r.answer)}`;
  const row = {} as Record<string, string>;
  for (const key of V2_FIELDS) row[key] = r[key] as string;
  return row as unknown as V2Row;
}

/** Parses data.json (an array) or JSON lines. */
export function parseV2(text: string, file: string): V2Row[] {
  const trimmed = text.trimStart();
  const items: Array<{ where: string; value: unknown }> = [];
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new UserError(
        `${file}: not valid JSON (${(err as Error).message.split('\n')[0]}); expected LongBench v2's data.json`,
      );
    }
    (parsed as unknown[]).forEach((value, i) => items.push({ where: `${file}: item ${i}`, value }));
  } else {
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        items.push({ where: `${file}:${i + 1}`, value: JSON.parse(line) });
      } catch (err) {
        throw new UserError(
          `${file}:${i + 1}: not valid JSON (${(err as Error).message.split('\n')[0]}); expected LongBench v2 items`,
        );
      }
    });
  }
  const rows: V2Row[] = [];
  for (const { where, value } of items) {
    const row = toV2Row(value);
    if (typeof row === 'string')
      throw new UserError(`${where}: ${row}; a LongBench v2 item has ${V2_FIELDS.join(', ')}`);
    rows.push(row);
  }
  if (rows.length === 0) throw new UserError(`${file} holds no items; expected LongBench v2's data.json`);
  return rows;
}

/** The file for `--data` (a file, or a directory holding data.json), else the bundled fixture. */
export function resolveV2File(data?: string): { file: string; fixture: boolean } {
  if (data === undefined) return { file: v2FixturePath(), fixture: true };
  if (!existsSync(data))
    throw new UserError(`--data ${data} does not exist: pass LongBench v2's data.json or its folder`);
  if (!statSync(data).isDirectory()) return { file: data, fixture: false };
  const file = join(data, 'data.json');
  if (!existsSync(file))
    throw new DatasetMissingError(`no data.json in ${data}: pass LongBench v2's data.json (HF THUDM/LongBench-v2)`);
  return { file, fixture: false };
}

export function loadV2(data?: string): V2Data {
  const { file, fixture } = resolveV2File(data);
  const raw = readFileSync(file);
  const text = decodeTextBytes(raw, file, "pass LongBench v2's data.json (UTF-8 JSON)");
  return { rows: parseV2(text, file), file, sha256: createHash('sha256').update(raw).digest('hex'), fixture };
}
