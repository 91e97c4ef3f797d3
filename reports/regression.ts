// Regression baselines made from our own runs, and the gate rule that compares a run against one.
//
// The rule, per (task, method, length) key present in both:
//   p = baseline score (fraction), n = baseline sample count, SE = sqrt(p(1-p)/n)
//   allowed drop = max(maxDrop, z·SE)          (maxDrop in points/100; z = 2 by default)
//   regression  ⇔ p − run score > allowed drop
// The binomial SE is exact for 0/1 metrics and an upper bound for scores in [0, 1] with the same mean (their
// variance is at most p(1−p)). At p = 0 or 1 the SE is 0, so only maxDrop applies.
// In exact mode (for deterministic CI runs) any change of score or n, in either direction, fails, and so does a key
// the baseline does not hold. A baseline key missing from the run fails in either mode (an interrupted or narrower
// run must not pass for a complete one) unless allowMissing, which skips it. Separately, the run fails when its total
// errored samples exceed maxErrors, or, without maxErrors, exceed the baseline's own total (so a run with errors never
// passes silently against a clean baseline).
// LongBench-E bucket rows (lengthKind 'bucket') are views of samples already in a task's 'all' row: never gated.
// `judge` (bench gate --paired, reports/paired-gate.ts) replaces the tolerance rule for the keys it decides.
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../harness/errors.js';
import { writeFileAtomic } from '../harness/run-dir/atomic-write.js';
import { fmt2, fmtScore } from './format.js';
import { isGateRow, type SummaryRow } from './summary.js';
import { plural } from '../harness/util/plural.js';

export interface BaselineEntry {
  task: string;
  method: string;
  model: string;
  lengthLabel: string;
  lengthKind: 'tokens' | 'docs' | 'native';
  length: number;
  metric: string;
  /** Fraction 0..1, unrounded. */
  score: number;
  n: number;
  errors: number;
}

export interface BaselineFile {
  kind: 'bench-baseline';
  version: 1;
  note?: string;
  source?: Record<string, unknown>;
  entries: BaselineEntry[];
}

/** Identity of a gate key: task, method, and the length as kind + number (labels are only for display). */
export function entryKey(e: Pick<BaselineEntry, 'task' | 'method' | 'lengthKind' | 'length'>): string {
  return `${e.task}\u0000${e.method}\u0000${e.lengthKind}:${e.length}`;
}

function displayKey(e: Pick<BaselineEntry, 'task' | 'method' | 'lengthLabel'>): string {
  return `${e.task} / ${e.method} / ${e.lengthLabel}`;
}

export function baselineFromRows(rows: SummaryRow[], source?: Record<string, unknown>): BaselineFile {
  return {
    kind: 'bench-baseline',
    version: 1,
    note: 'Regression baseline for "bench gate": scores are fractions 0..1 per (task, method, length). Regenerate with "bench baseline <run-dir> --out FILE" when a change is intended.',
    ...(source ? { source } : {}),
    entries: rows.filter(isGateRow).map((r) => ({
      task: r.task,
      method: r.method,
      model: r.model,
      lengthLabel: r.lengthLabel,
      lengthKind: r.lengthKind,
      length: r.length,
      metric: r.metric,
      score: r.score,
      n: r.n,
      errors: r.errors,
    })),
  };
}

/** Writes a baseline made from a run's summary rows (temp file + rename). */
export function writeBaseline(rows: SummaryRow[], file: string, source?: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(baselineFromRows(rows, source), null, 2)}\n`);
}

const LENGTH_KINDS: ReadonlySet<unknown> = new Set<BaselineEntry['lengthKind']>(['tokens', 'docs', 'native']);

/** At most this many problems of a baseline file are listed (one line each). */
const MAX_PROBLEMS = 20;

/** Why a JSON file does not parse, on one line: a bare NaN or Infinity by its line, else the parser's first line. */
export function jsonProblem(text: string, err: unknown): string {
  const lines = text.split('\n');
  const at = lines.findIndex(
    (l) => /[:[,]\s*-?(NaN|Infinity)\b/.test(l) || /^\s*-?(NaN|Infinity)\s*[,\]]?\s*$/.test(l),
  );
  if (at >= 0) {
    const token = /-?(NaN|Infinity)/.exec(lines[at])![0];
    return `line ${at + 1} holds ${token}, which is not a JSON number (JSON has no NaN or Infinity)`;
  }
  const first = (err as Error).message.split('\n')[0];
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/** What is wrong with one baseline entry, one phrase per field (empty when it is sound). */
function entryProblems(e: unknown): string[] {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return ['is not an object {task, method, ...}'];
  const v = e as Record<string, unknown>;
  const out: string[] = [];
  const show = (x: unknown) => (x === undefined ? 'nothing' : JSON.stringify(x));
  for (const k of ['task', 'method', 'lengthLabel', 'metric'] as const)
    if (typeof v[k] !== 'string' || v[k] === '') out.push(`'${k}' must be a non-empty string (got ${show(v[k])})`);
  if (v.model !== undefined && typeof v.model !== 'string') out.push(`'model' must be a string (got ${show(v.model)})`);
  if (!LENGTH_KINDS.has(v.lengthKind))
    out.push(`'lengthKind' must be tokens, docs or native (got ${show(v.lengthKind)})`);
  if (typeof v.length !== 'number' || !Number.isFinite(v.length) || v.length < 0)
    out.push(`'length' must be a number ≥ 0 (got ${show(v.length)})`);
  if (typeof v.score !== 'number' || !(v.score >= 0 && v.score <= 1))
    out.push(`'score' must be a fraction from 0 to 1 (got ${show(v.score)})`);
  const nOk = Number.isInteger(v.n) && (v.n as number) > 0;
  if (!nOk) out.push(`'n' must be a whole number > 0 (got ${show(v.n)})`);
  if (!Number.isInteger(v.errors) || (v.errors as number) < 0)
    out.push(`'errors' must be a whole number ≥ 0 (got ${show(v.errors)})`);
  else if (nOk && (v.errors as number) > (v.n as number))
    out.push(`'errors' (${v.errors as number}) must be at most 'n' (${v.n as number})`);
  return out;
}

/**
 * Reads and validates a baseline file; UserError on a missing or malformed file. A malformed one is reported with
 * one line per problem (entry and field), at most MAX_PROBLEMS of them.
 */
export function readBaseline(file: string): BaselineFile {
  if (!existsSync(file))
    throw new UserError(`baseline file not found: ${file} (make one with "bench baseline <run-dir> --out ${file}")`);
  const remake = 'fix it or remake it with "bench baseline <run-dir> --out FILE"';
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`baseline ${file} is not valid JSON: ${jsonProblem(text, err)}; ${remake}`);
  }
  const b = parsed as Partial<BaselineFile>;
  if (typeof b !== 'object' || b === null || b.kind !== 'bench-baseline' || !Array.isArray(b.entries)) {
    throw new UserError(
      `baseline ${file} is malformed: expected {"kind": "bench-baseline", "entries": [...]} as written by "bench baseline"`,
    );
  }
  const problems: string[] = [];
  if (b.version !== undefined && b.version !== 1)
    problems.push(`'version' must be 1 (got ${JSON.stringify(b.version)})`);
  if (b.entries.length === 0) problems.push(`'entries' is empty`);
  b.entries.forEach((e, i) => {
    const v = (e ?? {}) as Partial<BaselineEntry>;
    const where = [v.task, v.method, v.lengthLabel].every((x) => typeof x === 'string')
      ? ` (${displayKey(v as BaselineEntry)})`
      : '';
    for (const p of entryProblems(e)) problems.push(`entry ${i}${where}: ${p}`);
  });
  const seen = new Set<string>();
  if (problems.length === 0)
    for (const e of b.entries) {
      const key = entryKey(e);
      if (seen.has(key)) problems.push(`two entries for ${displayKey(e)}; keep one model per baseline`);
      seen.add(key);
    }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS).map((p) => `baseline ${file}: ${p}`);
    if (problems.length > MAX_PROBLEMS) shown.push(`baseline ${file}: ... and ${problems.length - MAX_PROBLEMS} more`);
    shown[shown.length - 1] += `; ${remake}`;
    throw new UserError(shown.join('\n'));
  }
  return b as BaselineFile;
}

export interface GateOptions {
  /** Flat tolerance in points (×100 scale). Default 0. */
  maxDrop?: number;
  /** Multiplier of the binomial SE. Default 2. */
  z?: number;
  /** Most errored samples allowed in the run (all keys together). Default: as many as the baseline had. */
  maxErrors?: number;
  /** Fail on any change (either direction) and on changed n. */
  exact?: boolean;
  /** Skip baseline keys the run lacks instead of failing on them. */
  allowMissing?: boolean;
  /** Another rule's verdict for a key (bench gate --paired: the paired test); undefined keeps the tolerance rule. */
  judge?: (entry: BaselineEntry, row: SummaryRow) => { verdict: 'pass' | 'regression'; message: string } | undefined;
}

export type Verdict = 'pass' | 'regression' | 'changed' | 'missing' | 'new';

export interface GateCheck {
  key: string;
  task: string;
  method: string;
  lengthLabel: string;
  verdict: Verdict;
  baseline?: { score: number; n: number; model: string };
  /** scoreX100: the run's score as its summary shows it (reports/format.ts rowPercent). */
  run?: { score: number; n: number; errors: number; model: string; scoreX100?: number };
  /** A missing key that --allow-missing skips (it does not fail the gate). */
  skipped?: boolean;
  /** Fractions. */
  drop?: number;
  allowed?: number;
  message: string;
}

export interface GateResult {
  checks: GateCheck[];
  /** max: --max-errors when given (else the baseline's total, `baseline`, is the limit). */
  errors: { total: number; max: number | null; baseline: number; failed: boolean };
  failed: boolean;
  exitCode: 0 | 1;
  notes: string[];
}

const EPS = 1e-9;

/** Whether a check fails the gate: a regression, a change (exact mode), or a missing key not skipped. */
export function failing(c: Pick<GateCheck, 'verdict' | 'skipped'>): boolean {
  return c.verdict === 'regression' || c.verdict === 'changed' || (c.verdict === 'missing' && !c.skipped);
}

/** The verdict line's parts on baseline keys the run lacks: failing ones (", 2 baseline keys missing from the run
 *  (--allow-missing skips them)") and skipped ones (", 2 missing keys skipped"); '' where there are none. */
export function missingNotes(result: Pick<GateResult, 'checks'>): { missingNote: string; skippedNote: string } {
  const missing = result.checks.filter((c) => !c.run && failing(c)).length;
  const skipped = result.checks.filter((c) => c.verdict === 'missing' && c.skipped).length;
  return {
    missingNote: missing
      ? `, ${plural(missing, 'baseline key')} missing from the run (--allow-missing skips them)`
      : '',
    skippedNote: skipped ? `, ${plural(skipped, 'missing key')} skipped` : '',
  };
}

/** The allowed drop (fraction) for a baseline p and n. */
export function allowedDrop(p: number, n: number, maxDropPoints = 0, z = 2): number {
  return Math.max(maxDropPoints / 100, z * Math.sqrt((p * (1 - p)) / n));
}

/** Applies the gate rule; throws UserError when the run and baseline share no key. */
function runOf(r: SummaryRow): NonNullable<GateCheck['run']> {
  return { score: r.score, n: r.n, errors: r.errors, model: r.model, scoreX100: r.scoreX100 };
}

export function evaluateGate(baseline: BaselineFile, rows: SummaryRow[], options: GateOptions = {}): GateResult {
  const z = options.z ?? 2;
  const maxDrop = options.maxDrop ?? 0;
  const notes: string[] = [];
  const runByKey = new Map<string, SummaryRow>();
  const gateRows = rows.filter(isGateRow);
  for (const r of gateRows) {
    const key = entryKey(r);
    const other = runByKey.get(key);
    if (other && other.model !== r.model)
      throw new UserError(
        `the run has several models for ${displayKey(r)} (${other.model}, ${r.model}); gate one model per run`,
      );
    runByKey.set(key, r);
  }
  // Scores of different metrics do not compare (an f1 baseline against a sub_em run): refused, one line per key.
  const metricProblems = baseline.entries.flatMap((e) => {
    const r = runByKey.get(entryKey(e));
    return r && r.metric !== e.metric
      ? [`${displayKey(e)}: the baseline is scored with ${e.metric}, the run with ${r.metric}`]
      : [];
  });
  if (metricProblems.length > 0) {
    const shown = metricProblems.slice(0, MAX_PROBLEMS);
    if (metricProblems.length > MAX_PROBLEMS) shown.push(`... and ${metricProblems.length - MAX_PROBLEMS} more keys`);
    shown[shown.length - 1] +=
      '; scores of different metrics do not compare: gate against a baseline made with "bench baseline" from a run with the same metrics';
    throw new UserError(shown.join('\n'));
  }
  const checks: GateCheck[] = [];
  const baseKeys = new Set<string>();
  let overlap = 0;
  for (const e of baseline.entries) {
    const id = entryKey(e);
    const key = displayKey(e);
    baseKeys.add(id);
    const r = runByKey.get(id);
    const base = { score: e.score, n: e.n, model: e.model };
    if (!r) {
      const skip = options.allowMissing === true;
      checks.push({
        key,
        task: e.task,
        method: e.method,
        lengthLabel: e.lengthLabel,
        verdict: !skip && options.exact ? 'changed' : 'missing',
        baseline: base,
        message: skip ? 'not in the run (skipped: --allow-missing)' : 'in the baseline but not in the run',
        ...(skip ? { skipped: true } : {}),
      });
      continue;
    }
    overlap++;
    const run = runOf(r);
    const drop = e.score - r.score;
    const allowed = allowedDrop(e.score, e.n, maxDrop, z);
    let verdict: Verdict;
    let message: string;
    if (options.exact) {
      const same = Math.abs(drop) <= EPS && r.n === e.n;
      verdict = same ? 'pass' : 'changed';
      message = same ? 'unchanged' : `changed: ${fmtScore(e)} (n=${e.n}) → ${fmtScore(r)} (n=${r.n})`;
    } else {
      verdict = drop > allowed + EPS ? 'regression' : 'pass';
      const change =
        Math.abs(drop) <= EPS
          ? 'no change'
          : drop > 0
            ? `drop ${fmt2(drop * 100)} points`
            : `gain ${fmt2(-drop * 100)} points`;
      message = `${fmtScore(e)} → ${fmtScore(r)}: ${change}, allowed drop ${fmt2(allowed * 100)}`;
      const judged = options.judge?.(e, r);
      if (judged) ({ verdict, message } = judged);
    }
    if (e.model && e.model !== r.model) notes.push(`${key}: baseline model ${e.model}, run model ${r.model}`);
    checks.push({
      key,
      task: e.task,
      method: e.method,
      lengthLabel: e.lengthLabel,
      verdict,
      baseline: base,
      run,
      drop,
      allowed,
      message,
    });
  }
  if (overlap === 0) {
    throw new UserError(
      'the run and the baseline share no (task, method, length); check that the baseline belongs to this kind of run',
    );
  }
  for (const [id, r] of runByKey) {
    if (!baseKeys.has(id)) {
      checks.push({
        key: displayKey(r),
        task: r.task,
        method: r.method,
        lengthLabel: r.lengthLabel,
        verdict: 'new',
        run: runOf(r),
        message: `${fmtScore(r)} (n=${r.n}); not in the baseline`,
      });
    }
  }
  const totalErrors = gateRows.reduce((s, r) => s + r.errors, 0);
  const baselineErrors = baseline.entries.reduce((s, e) => s + e.errors, 0);
  const maxErrors = options.maxErrors ?? null;
  const errorsFailed = totalErrors > (maxErrors ?? baselineErrors);
  // --exact means any change fails, and a (task, method, length) the baseline does not hold is a change.
  const failed = errorsFailed || checks.some((c) => failing(c) || (options.exact === true && c.verdict === 'new'));
  return {
    checks,
    errors: { total: totalErrors, max: maxErrors, baseline: baselineErrors, failed: errorsFailed },
    failed,
    exitCode: failed ? 1 : 0,
    notes,
  };
}

function pad(s: string, w: number, right = false): string {
  return right ? s.padStart(w) : s.padEnd(w);
}

/** The printed verdict: one line per key, then the overall result (the same rule that sets the exit code). */
export function formatGate(result: GateResult, options: GateOptions = {}): string {
  const head = ['key', 'baseline', 'run', 'drop', 'allowed', 'verdict'];
  const body = result.checks.map((c) => [
    c.key,
    c.baseline ? `${fmtScore({ task: c.task, ...c.baseline })} (n=${c.baseline.n})` : '–',
    c.run ? `${fmtScore({ task: c.task, ...c.run })} (n=${c.run.n})` : '–',
    c.drop === undefined ? '–' : fmt2(c.drop * 100),
    c.allowed === undefined || options.exact ? '–' : fmt2(c.allowed * 100),
    c.verdict === 'pass' ? 'ok' : c.verdict.toUpperCase(),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i], i > 0 && i < 5))
      .join('  ')
      .trimEnd();
  const missingRule = options.allowMissing ? 'missing keys skipped (--allow-missing)' : 'a missing key fails';
  const rule = options.exact
    ? `rule: exact (any change of score or n fails; ${missingRule})`
    : `rule: regression if drop > max(${fmt2(options.maxDrop ?? 0)} points, ${options.z ?? 2}·sqrt(p(1-p)/n) from the baseline's p and n); ${missingRule}`;
  const lines = [rule, line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  const e = result.errors;
  const errLine =
    e.max !== null
      ? `errors: ${e.total} (max ${e.max})${e.failed ? ' — TOO MANY' : ''}`
      : `errors: ${e.total}${e.failed ? ` — TOO MANY: the baseline had ${e.baseline}; pass --max-errors ${e.total} to allow them` : ''}`;
  lines.push(errLine, ...result.notes.map((n) => `note: ${n}`));
  const bad = result.checks.filter((c) => c.run && failing(c)).length;
  const compared = result.checks.filter((c) => c.run && c.baseline).length;
  const { missingNote, skippedNote } = missingNotes(result);
  lines.push(
    result.failed
      ? `gate: FAIL (${bad} of ${plural(compared, 'key')} ${options.exact ? 'changed' : 'regressed'}${missingNote}${result.errors.failed ? ', too many errors' : ''})`
      : `gate: PASS (${plural(compared, 'key')} compared${skippedNote})`,
  );
  return lines.join('\n');
}

function xml(text: string): string {
  // Drop characters XML 1.0 forbids, then escape.
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
    );
}

/** JUnit XML: one testcase per key (plus one for the error budget), or one errored testcase when the gate could not run. */
export function junitXml(suiteName: string, result: GateResult | { error: string }): string {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  if ('error' in result) {
    errors = 1;
    cases.push(
      `    <testcase classname="bench.gate" name="gate"><error message="${xml(result.error)}">${xml(result.error)}</error></testcase>`,
    );
  } else {
    for (const c of result.checks) {
      const open = `    <testcase classname="${xml(`bench.gate.${c.task}.${c.method}`)}" name="${xml(c.lengthLabel)}" time="0">`;
      if (failing(c)) {
        failures++;
        cases.push(
          `${open}<failure message="${xml(c.message)}" type="${c.verdict}">${xml(`${c.key}: ${c.message}`)}</failure></testcase>`,
        );
      } else if (c.verdict === 'missing' || c.verdict === 'new') {
        skipped++;
        cases.push(`${open}<skipped message="${xml(c.message)}"/></testcase>`);
      } else {
        cases.push(`${open}<system-out>${xml(c.message)}</system-out></testcase>`);
      }
    }
    if (result.errors.max !== null || result.errors.failed) {
      const msg = `${result.errors.total} errored samples (max ${result.errors.max ?? `${result.errors.baseline}, as in the baseline`})`;
      if (result.errors.failed) failures++;
      cases.push(
        `    <testcase classname="bench.gate" name="errors" time="0">${result.errors.failed ? `<failure message="${xml(msg)}" type="errors">${xml(msg)}</failure>` : ''}</testcase>`,
      );
    }
  }
  const tests = cases.length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="bench gate" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">
  <testsuite name="${xml(suiteName)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="0">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
