// What a BABILong task reads: its bundled bAbI test file, or --data: bAbI files (a file or a folder of qa*_*.txt, as
// the tasks_1-20_v1-2/en/ folder holds them) or BABILong's own rows ({input, question, target}: create_tasks.py's
// <task>/<length>.json, or a JSON/JSONL file named by its length).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseLengths } from '../../harness/config/lengths.js';
import { UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';
import { decodeTextBytes } from '../../harness/text-file.js';
import type { LengthTarget } from '../../harness/types.js';
import { parseBabi, type BabiSample } from './babi.js';
import { BABI_FILES } from './tasks.js';

export interface BabiData {
  kind: 'babi';
  file: string;
  sha256: string;
  text: string;
  /** Every question of the file (max_n_facts is applied per length). */
  samples: BabiSample[];
  bundled: boolean;
}

/** One of BABILong's published rows. */
export interface BabilongRow {
  input: string;
  question: string;
  target: string;
}

export interface RowsData {
  kind: 'rows';
  files: Array<{ file: string; sha256: string; length: LengthTarget; rows: BabilongRow[] }>;
}

const BABI_FIX = 'pass a bAbI v1.2 task file (e.g. tasks_1-20_v1-2/en/qa1_single-supporting-fact_test.txt) or its folder';

function read(file: string, fix: string): { text: string; sha256: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new UserError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}; ${fix}`);
  }
  return { text: decodeTextBytes(bytes, file, fix), sha256: createHash('sha256').update(bytes).digest('hex') };
}

export function bundledBabiPath(task: string): string {
  return datasetPath('babilong', 'babi', `${BABI_FILES[task]}_test.txt.gz`);
}

function babiFrom(file: string, bundled: boolean): BabiData {
  const { text, sha256 } = read(file, BABI_FIX);
  return { kind: 'babi', file, sha256, text, samples: parseBabi(text, file), bundled };
}

/** The bAbI file of `task` in a folder: its test file first, as BABILong evaluates on the test split. */
function babiInFolder(dir: string, task: string): string | undefined {
  const names = readdirSync(dir).filter((n) => n.startsWith(`${task}_`) && /\.txt(\.gz)?$/.test(n));
  return names.find((n) => n.includes('_test.')) ?? names.sort()[0];
}

const LENGTH_FILE = /^(\d+(?:\.\d+)?[kKmM])\.jsonl?$/;

function lengthOfFile(file: string): LengthTarget {
  const m = LENGTH_FILE.exec(basename(file));
  if (!m)
    throw new UserError(
      `${file}: BABILong rows files are named by their length (0k.json, 4k.json, 1M.json, as create_tasks.py writes them); rename it`,
    );
  return parseLengths(m[1].toLowerCase())[0];
}

function parseRows(text: string, file: string): BabilongRow[] {
  const trimmed = text.trim();
  let values: unknown[];
  try {
    values = trimmed.startsWith('[')
      ? (JSON.parse(trimmed) as unknown[])
      : trimmed.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
  } catch (err) {
    throw new UserError(`${file}: not JSON or JSON lines (${(err as Error).message}); expected BABILong rows {input, question, target}`);
  }
  return values.map((v, i) => {
    const r = v as Record<string, unknown>;
    for (const k of ['input', 'question', 'target'])
      if (typeof r?.[k] !== 'string')
        throw new UserError(`${file}: row ${i + 1} has no string '${k}'; expected BABILong rows {input, question, target}`);
    return { input: r.input as string, question: r.question as string, target: r.target as string };
  });
}

function rowsFrom(files: string[]): RowsData {
  return {
    kind: 'rows',
    files: files.map((file) => {
      const { text, sha256 } = read(file, 'expected BABILong rows {input, question, target}');
      return { file, sha256, length: lengthOfFile(file), rows: parseRows(text, file) };
    }),
  };
}

const looksJson = (file: string) => /^\s*[[{]/.test(read(file, BABI_FIX).text.slice(0, 64));

/** The task's data: bundled, or what --data names. */
export function loadBabilong(task: string, data: string | undefined): BabiData | RowsData {
  if (data === undefined) return babiFrom(bundledBabiPath(task), true);
  if (!existsSync(data)) throw new UserError(`--data ${data}: no such file or folder; ${BABI_FIX}`);
  if (statSync(data).isDirectory()) {
    const babi = babiInFolder(data, task);
    if (babi) return babiFrom(join(data, babi), false);
    const dir = existsSync(join(data, task)) ? join(data, task) : data;
    const rows = readdirSync(dir).filter((n) => LENGTH_FILE.test(n));
    if (rows.length > 0) return rowsFrom(rows.sort().map((n) => join(dir, n)));
    throw new UserError(
      `--data ${data}: holds no bAbI file of ${task} (${BABI_FILES[task]}_test.txt) and no BABILong rows (${task}/4k.json ...); ${BABI_FIX}`,
    );
  }
  return looksJson(data) ? rowsFrom([data]) : babiFrom(data, false);
}
