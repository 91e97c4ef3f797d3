import { UserError } from '../errors.js';
import type { LengthTarget } from '../types.js';

const K = 1024;
const M = 1024 * 1024;
const HINT = 'expected e.g. 32k..3.5m, 8k,16k,32k, 131072, or docs:50..25600 (k = 1024, m = 1024²; a..b doubles from a and ends with b)';

/** Label for a token count: "32k", "3.5m", "1m", or the plain number. */
export function tokenLabel(tokens: number): string {
  if (tokens >= M && (tokens * 100) % M === 0) return `${trimNumber(tokens / M)}m`;
  if (tokens >= K && (tokens * 100) % K === 0) return `${trimNumber(tokens / K)}k`;
  return String(tokens);
}

function trimNumber(x: number): string {
  return String(Number(x.toFixed(2)));
}

function parseTokenValue(raw: string, whole: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(raw.trim());
  if (!m) throw new UserError(`bad --lengths '${whole}': '${raw}' is not a length; ${HINT}`);
  const unit = m[2].toLowerCase();
  const value = Number(m[1]) * (unit === 'k' ? K : unit === 'm' ? M : 1);
  const rounded = Math.round(value);
  if (!Number.isFinite(value) || rounded <= 0) throw new UserError(`bad --lengths '${whole}': '${raw}' must be positive; ${HINT}`);
  if (Math.abs(rounded - value) > 1e-9) throw new UserError(`bad --lengths '${whole}': '${raw}' is not a whole number of tokens; ${HINT}`);
  return rounded;
}

function parseDocValue(raw: string, whole: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UserError(`bad --lengths '${whole}': '${raw}' is not a document count; ${HINT}`);
  const n = Number(raw.trim());
  if (n < 1) throw new UserError(`bad --lengths '${whole}': a document count must be at least 1`);
  return n;
}

function expandRange(lo: number, hi: number, raw: string, whole: string): number[] {
  if (lo > hi) throw new UserError(`bad --lengths '${whole}': range '${raw}' goes down; write the smaller length first`);
  const out: number[] = [];
  for (let v = lo; v < hi; v *= 2) out.push(v);
  out.push(hi);
  return out;
}

/**
 * Parses a length SPEC into a grid, ascending and without duplicates.
 * Tokens: `32k..3.5m` (doubling from 32k, always ending with 3.5m), comma lists, plain numbers.
 * Document counts (RULER-HQA as in MemAgent): `docs:50..25600`, `docs:50,100`.
 */
export function parseLengths(spec: string): LengthTarget[] {
  const whole = spec.trim();
  if (whole === '') throw new UserError(`bad --lengths '': empty; ${HINT}`);
  const docs = /^docs:/i.test(whole);
  const body = docs ? whole.slice(5) : whole;
  const values: number[] = [];
  for (const part of body.split(',')) {
    const item = part.trim();
    if (item === '') throw new UserError(`bad --lengths '${whole}': empty item in the list; ${HINT}`);
    const parse = (s: string) => (docs ? parseDocValue(s, whole) : parseTokenValue(s, whole));
    const range = item.split('..');
    if (range.length === 1) values.push(parse(item));
    else if (range.length === 2) values.push(...expandRange(parse(range[0]), parse(range[1]), item, whole));
    else throw new UserError(`bad --lengths '${whole}': '${item}' has more than one '..'; ${HINT}`);
  }
  const unique = [...new Set(values)].sort((a, b) => a - b);
  return unique.map((value) =>
    docs ? { kind: 'docs', value, label: `docs:${value}` } : { kind: 'tokens', value, label: tokenLabel(value) },
  );
}
