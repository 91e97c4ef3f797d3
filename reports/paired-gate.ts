// `bench gate RUN --baseline <run-dir | file> [--paired]`: a run directory as the baseline, and the paired rule.
//
// A run directory as --baseline is summarised like `bench baseline` would (per task × method × length scores), so
// the ordinary rule applies to it unchanged. With --paired, each key whose baseline run shares sample ids with the
// run is judged by the paired rule of reports/compare.ts (significantly negative after Holm across the paired keys,
// and a drop beyond --max-drop); keys without shared ids, and every key of a baseline *file* (which holds no sample
// ids), fall back to the ordinary rule. The output names the rule used for each key.
import { existsSync, statSync } from 'node:fs';
import { UserError } from '../harness/errors.js';
import type { SampleRecord } from '../harness/types.js';
import { judgeRows, pairedGateMessage, ruleText, type CompareRow, type CompareRuleOptions } from './compare.js';
import { fmt2, fmtScore } from './format.js';
import { fmtDiffInterval, fmtP } from './paired-report.js';
import { contentDifferences, pairRuns, type RunContent } from './paired.js';
import { loadRecords } from './records.js';
import {
  baselineFromRows,
  entryKey,
  missingNotes,
  readBaseline,
  type BaselineFile,
  type GateOptions,
  type GateResult,
} from './regression.js';
import { summarize } from './summary.js';
import { plural } from '../harness/util/plural.js';

export interface GateBaselineSource {
  path: string;
  kind: 'file' | 'run';
  baseline: BaselineFile;
  /** The baseline run's records (kind 'run'); null for a baseline file. */
  records: SampleRecord[] | null;
}

/** Reads --baseline: a run directory (summarised) or a baseline file written by `bench baseline`. */
export async function loadGateBaseline(
  path: string,
  onWarning?: (message: string) => void,
): Promise<GateBaselineSource> {
  if (existsSync(path) && statSync(path).isDirectory()) {
    const records = await loadRecords(path, { onWarning });
    // Gate rows only: no report facet's breakdown rows.
    const rows = summarize(records, []);
    if (rows.length === 0) throw new UserError(`baseline run directory ${path} has no sample records`);
    return { path, kind: 'run', baseline: baselineFromRows(rows, { runDir: path }), records };
  }
  return { path, kind: 'file', baseline: readBaseline(path), records: null };
}

export interface PairedGate {
  source: GateBaselineSource;
  options: CompareRuleOptions;
  /** Every key both hold, judged (paired where ids are shared). */
  rows: CompareRow[];
  /** Why no key could be paired, when none could. */
  fallback: string | null;
  judge: NonNullable<GateOptions['judge']>;
}

/** The paired rule for `bench gate --paired` (baseline = A, run = B). `content`: what decides each run's samples
 *  besides their ids (their manifests' seed and data, reports/paired.ts runContent); ids whose samples differ are not
 *  paired. */
export function pairedGate(
  source: GateBaselineSource,
  runRecords: SampleRecord[],
  options: CompareRuleOptions,
  content?: { a: RunContent; b: RunContent },
): PairedGate {
  const pairing =
    source.records === null
      ? null
      : pairRuns(source.records, runRecords, { aLabel: `baseline ${source.path}`, bLabel: 'the run', content });
  const rows = pairing === null ? [] : judgeRows(pairing.rows, options);
  const why = content ? contentDifferences(content.a, content.b, new Set(rows.map((r) => r.task))) : [];
  const byKey = new Map(
    rows
      .filter((r) => r.paired)
      .map((r) => [entryKey({ task: r.task, method: r.a.method, lengthKind: r.lengthKind, length: r.length }), r]),
  );
  const fallback =
    source.records === null
      ? `the baseline ${source.path} is a file: it holds scores, not sample ids, so every key uses the unpaired rule (pass a run directory as --baseline to pair)`
      : byKey.size === 0
        ? pairing !== null && pairing.otherContent > 0
          ? `the baseline run and this run hold other samples under the same ids (${why.length ? `built with another ${why.join(', ')}` : 'their task version, question or answers differ'}): every key uses the unpaired rule`
          : 'the baseline run and this run share no sample ids: every key uses the unpaired rule'
        : pairing !== null && pairing.otherContent > 0
          ? `${plural(pairing.otherContent, 'sample id')} held by both runs ${pairing.otherContent === 1 ? 'names' : 'name'} other samples in each (${why.length ? `built with another ${why.join(', ')}` : 'their task version, question or answers differ'}): not paired`
          : null;
  return {
    source,
    options,
    rows,
    fallback,
    judge: (entry) => {
      const row = byKey.get(entryKey(entry));
      return row
        ? { verdict: row.worse ? 'regression' : 'pass', message: `paired: ${pairedGateMessage(row)}` }
        : undefined;
    },
  };
}

/** The gate's display name of a key. */
function formatCompareKey(task: string, method: string, lengthLabel: string): string {
  return `${task} / ${method} / ${lengthLabel}`;
}

/** Header, a rule line, then the body, columns padded (right-aligned where `right`). */
function pad(head: string[], body: string[][], right: (i: number) => boolean): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
}

/** The printed verdict of `bench gate --paired`: the rule, one line per key with the rule it used, the totals. */
export function formatPairedGate(result: GateResult, pg: PairedGate, gateOptions: GateOptions): string {
  const byName = new Map(pg.rows.map((r) => [formatCompareKey(r.task, r.a.method, r.lengthLabel), r]));
  const pairedCount = pg.rows.filter((r) => r.paired).length;
  const head = ['key', 'baseline', 'run', 'diff', '95% CI', 'p', 'Holm p', 'rule', 'verdict'];
  const body = result.checks.map((c) => {
    const row = byName.get(formatCompareKey(c.task, c.method, c.lengthLabel));
    const paired = row?.paired === true && c.run !== undefined && c.baseline !== undefined;
    return [
      c.key,
      c.baseline ? `${fmtScore({ task: c.task, ...c.baseline })} (n=${c.baseline.n})` : '–',
      c.run ? `${fmtScore({ task: c.task, ...c.run })} (n=${c.run.n})` : '–',
      c.drop === undefined ? '–' : fmt2(-c.drop * 100),
      paired ? fmtDiffInterval(row) : '–',
      paired ? fmtP(row.p) : '–',
      paired ? fmtP(row.pHolm) : '–',
      paired
        ? `paired (${row.test === 'mcnemar-exact' ? 'McNemar' : 'sign-flip'}, ${row.shared} ids)`
        : c.run && c.baseline
          ? `unpaired (allowed drop ${fmt2((c.allowed ?? 0) * 100)})`
          : '–',
      c.verdict === 'pass' ? (paired ? `ok (${row.verdict})` : 'ok') : c.verdict.toUpperCase(),
    ];
  });
  const rule = ruleText(pg.options, pairedCount)
    .replace(/^rule: B is WORSE where B − A/, 'rule (--paired): a key REGRESSES where run − baseline')
    .replace("with A's p and n (the gate's rule)", "with the baseline's p and n (the unpaired rule)");
  const lines = [rule, `baseline: ${pg.source.kind === 'run' ? 'run directory' : 'file'} ${pg.source.path}`];
  if (pg.fallback) lines.push(`note: ${pg.fallback}`);
  lines.push(...pad(head, body, (i) => i > 0 && i < 7));
  lines.push(
    `errors: ${result.errors.total}${result.errors.max === null ? '' : ` (max ${result.errors.max})`}${result.errors.failed ? ' — TOO MANY' : ''}`,
  );
  lines.push(...result.notes.map((n) => `note: ${n}`));
  const compared = result.checks.filter((c) => c.run && c.baseline);
  const pairedKeys = compared.filter(
    (c) => byName.get(formatCompareKey(c.task, c.method, c.lengthLabel))?.paired,
  ).length;
  const bad = result.checks.filter((c) => c.verdict === 'regression' || c.verdict === 'changed').length;
  const counts = `${plural(compared.length, 'key')} compared: ${pairedKeys} paired, ${compared.length - pairedKeys} unpaired`;
  const { missingNote, skippedNote } = missingNotes(result);
  lines.push(
    result.failed
      ? `gate: FAIL (${bad} of ${plural(compared.length, 'key')} regressed${missingNote}${result.errors.failed ? ', too many errors' : ''}; ${counts})`
      : `gate: PASS (${counts}${skippedNote})`,
  );
  return lines.join('\n');
}
