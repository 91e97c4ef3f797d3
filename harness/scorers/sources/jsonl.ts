// Strict JSONL reading for `bench score`: every problem names the file and line.
import { UserError } from '../../errors.js';
import { readTextFile } from '../../text-file.js';

export interface JsonlLine {
  line: number;
  value: Record<string, unknown>;
}

export interface JsonlFile {
  path: string;
  lines: JsonlLine[];
  /** Set when a torn (unparseable) last line was skipped. */
  tornLastLine?: number;
}

/**
 * Reads a JSONL file of objects. Blank lines are skipped. A line that is not a JSON object is a UserError, except
 * an unparseable last line when `allowTornLastLine` (a run killed mid-write), which is skipped and reported.
 */
export function readJsonl(path: string, opts: { allowTornLastLine?: boolean } = {}): JsonlFile {
  // gzip is read transparently; bytes that are not UTF-8 text are refused with their offset, never echoed.
  const text = readTextFile(path, 'expected JSON lines (one JSON object per line)');
  const raw = text.split('\n');
  let last = raw.length - 1;
  while (last >= 0 && raw[last].trim() === '') last--;
  const lines: JsonlLine[] = [];
  let tornLastLine: number | undefined;
  for (let i = 0; i <= last; i++) {
    const src = raw[i].trim();
    if (src === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(src);
    } catch {
      if (opts.allowTornLastLine && i === last) {
        tornLastLine = i + 1;
        continue;
      }
      throw new UserError(`${path}:${i + 1}: not valid JSON; each line must be one JSON object`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new UserError(`${path}:${i + 1}: expected a JSON object on each line`);
    }
    lines.push({ line: i + 1, value: value as Record<string, unknown> });
  }
  return { path, lines, tornLastLine };
}

/** "path:line: <what>" as a UserError. */
export function lineError(path: string, line: number, what: string): UserError {
  return new UserError(`${path}:${line}: ${what}`);
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
