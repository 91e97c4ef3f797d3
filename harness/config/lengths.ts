import { UserError } from '../errors.js';
import type { LengthTarget } from '../types.js';

const K = 1024;
const M = 1024 * 1024;
const HINT =
  'expected e.g. 32k..3.5m, 8k,16k,32k, 131072, or docs:50..25600 (k = 1024, m = 1024²; a..b doubles from a and ends with b)';

/** `--lengths paper`: MemAgent's RULER-HQA grid, 50 … 25600 documents (the paper labels them 7K … 3.5M). */
export const PAPER_GRID = 'docs:50..25600';

/** Label for a token count: "32k", "3.5m", "1m", or the plain number. */
export function tokenLabel(tokens: number): string {
  if (tokens === 0) return '0k';
  if (tokens >= M && (tokens * 100) % M === 0) return `${trimNumber(tokens / M)}m`;
  if (tokens >= K && (tokens * 100) % K === 0) return `${trimNumber(tokens / K)}k`;
  return String(tokens);
}

function trimNumber(x: number): string {
  return String(Number(x.toFixed(2)));
}

/**
 * The largest token length accepted: 64m. The longest published point is 3.5m (MemAgent); 64m is 18× that and a
 * MemAgent sample there is already ~13,000 sequential model calls. Above it a length is almost always a mistyped unit
 * (99999m for 99999k), and building it would exhaust memory long before any model call.
 */
export const MAX_TOKENS = 64 * M;
/** The smallest token length written without a unit (k, m): below it a plain number is refused as a missing unit. */
export const MIN_UNITLESS = 1000;
/** The largest document count accepted: 500,000 documents (≈ 64m tokens of RULER-HQA paragraphs), for the same reason. */
export const MAX_DOCS = 500_000;

function parseTokenValue(raw: string, whole: string): number {
  if (/^\s*-/.test(raw))
    throw new UserError(`bad --lengths '${whole}': '${raw}' is negative; a length must be positive; ${HINT}`);
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(raw.trim());
  if (!m) throw new UserError(`bad --lengths '${whole}': '${raw}' is not a length; ${HINT}`);
  const unit = m[2].toLowerCase();
  const value = Number(m[1]) * (unit === 'k' ? K : unit === 'm' ? M : 1);
  const rounded = Math.round(value);
  // BABILong's 0k: its facts with no background text. Written with a unit only, and only tasks that have it take it.
  if (value === 0 && unit !== '') return 0;
  if (!Number.isFinite(value) || rounded <= 0)
    throw new UserError(`bad --lengths '${whole}': '${raw}' must be positive; ${HINT}`);
  if (Math.abs(rounded - value) > 1e-9)
    throw new UserError(`bad --lengths '${whole}': '${raw}' is not a whole number of tokens; ${HINT}`);
  // `--lengths 32` is almost always 32k or 32 documents meant: a plain number is a token count only from 1000 up.
  if (unit === '' && rounded < MIN_UNITLESS)
    throw new UserError(
      `bad --lengths '${whole}': '${raw.trim()}' has no unit; write ${rounded}k (${(rounded * K).toLocaleString('en-US')} tokens) or docs:${rounded} (${rounded} documents); a number without a unit means tokens only from ${MIN_UNITLESS.toLocaleString('en-US')} up`,
    );
  if (rounded > MAX_TOKENS) {
    throw new UserError(
      `bad --lengths '${whole}': '${raw}' is ${rounded.toLocaleString('en-US')} tokens, above the maximum of 64m (18× the longest published length, 3.5m; a larger value is usually a mistyped unit and would exhaust memory building the context)`,
    );
  }
  return rounded;
}

function parseDocValue(raw: string, whole: string): number {
  const text = raw.trim().replace(DOCS_PREFIX, '').trim();
  if (text.startsWith('-'))
    throw new UserError(`bad --lengths '${whole}': '${raw}' is negative; a document count must be at least 1`);
  if (!/^\d+$/.test(text)) throw new UserError(`bad --lengths '${whole}': '${raw}' is not a document count; ${HINT}`);
  const n = Number(text);
  if (n < 1) throw new UserError(`bad --lengths '${whole}': a document count must be at least 1`);
  if (n > MAX_DOCS) {
    throw new UserError(
      `bad --lengths '${whole}': '${raw}' is above the maximum of ${MAX_DOCS.toLocaleString('en-US')} documents (≈ 64m tokens; MemAgent's largest grid point is docs:25600)`,
    );
  }
  return n;
}

const DOCS_PREFIX = /^docs:/i;

function expandRange(lo: number, hi: number, raw: string, whole: string): number[] {
  if (lo > hi)
    throw new UserError(`bad --lengths '${whole}': range '${raw}' goes down; write the smaller length first`);
  const out: number[] = [];
  // 0k..128k: 0k, then doubling from 1k (BABILong's grid).
  if (lo === 0 && hi > 0) {
    out.push(0);
    lo = Math.min(K, hi);
  }
  for (let v = lo; v < hi; v *= 2) out.push(v);
  out.push(hi);
  return out;
}

/**
 * Parses a length SPEC into a grid, ascending and without duplicates.
 * Tokens: `32k..3.5m` (doubling from 32k, always ending with 3.5m), comma lists, plain numbers.
 * Document counts (RULER-HQA as in MemAgent): `docs:50..25600` (also spelled `paper`), `docs:50,100`.
 */
export function parseLengths(spec: string): LengthTarget[] {
  const whole = spec.trim();
  if (/^paper$/i.test(whole)) return parseLengths(PAPER_GRID);
  if (whole === '') throw new UserError(`bad --lengths '': empty; ${HINT}`);
  // `docs:` before the first item makes the whole list document counts; later items may repeat it (docs:50,docs:200).
  const docs = DOCS_PREFIX.test(whole);
  const values: number[] = [];
  for (const part of whole.split(',')) {
    const item = part.trim();
    if (item === '') throw new UserError(`bad --lengths '${whole}': empty item in the list; ${HINT}`);
    if (!docs && /docs:/i.test(item))
      throw new UserError(`bad --lengths '${whole}': mixes token lengths and docs: counts; run them separately`);
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

/** What a sample records when its built context is longer than its token target (kind 'tokens' only). */
export interface OverTarget {
  over_target: true;
  target_tokens: number;
  built_tokens: number;
}

/**
 * The over-target rule: a context sized to a token target is never longer than the target, unless it cannot be made
 * to fit (a question's own paragraphs alone exceed it). Such a sample is marked, never passed off as that length:
 * its metadata gets these facts and its record the status 'over-target'. Document counts and native lengths have no
 * token target, so they are never over it; nor is BABILong's 0k, which means the facts alone, whatever their length.
 */
export function overTarget(length: LengthTarget, builtTokens: number): OverTarget | undefined {
  if (length.kind !== 'tokens' || length.value === 0 || builtTokens <= length.value) return undefined;
  return { over_target: true, target_tokens: length.value, built_tokens: builtTokens };
}
