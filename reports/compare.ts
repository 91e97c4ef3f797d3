// The rule that decides whether B is worse than A — shared by `bench compare A B` and `bench gate --paired` — and
// their printed forms.
//
// Per task × method × length (paired over the sample ids both sides hold):
//   paired row (shared ids):  B is WORSE ⇔ B − A < 0, significant after Holm across all paired rows compared
//                             (Holm p ≤ α; exact McNemar for 0/1 scores, sign-flip test otherwise) AND the drop
//                             A − B > --max-drop points. --max-drop is a floor, as in the gate: a significant drop of
//                             at most that many points passes.
//   unpaired row (no shared ids): the gate's rule on the two scores: WORSE ⇔ A − B > max(--max-drop, z·√(p(1−p)/n))
//                             with A's p and n (reports/regression.ts).
// "beyond tolerance" (shown on every row): A − B > max(--max-drop, z·√(p(1−p)/n)), the unpaired gate's verdict, for
// reference. Exit codes: 0 no row WORSE, 1 some row WORSE, 2 usage or input error (nothing in common, bad flags).
import { fmt2 } from './format.js';
import { allowedDrop } from './regression.js';
import { applyHolm, DEFAULT_ALPHA, type DiffRow } from './paired.js';
import {
  diffColumns,
  fmtDiffInterval,
  fmtP,
  fmtSigned,
  holmSentence,
  PAIRED_NOTE,
  textTable,
  type DiffColumn,
} from './paired-report.js';
import { plural } from '../harness/util/plural.js';

const EPS = 1e-9;

export interface CompareRuleOptions {
  /** Family-wise error rate of the Holm correction. Default 0.05. */
  alpha?: number;
  /** Drops of at most this many points (×100) never fail. Default 0. */
  maxDrop?: number;
  /** Multiplier of the binomial SE in the unpaired (gate) tolerance. Default 2. */
  z?: number;
}

export interface CompareRow extends DiffRow {
  rule: 'paired' | 'unpaired';
  /** The gate's allowed drop from A's score and n (fraction). */
  tolerance: number;
  /** A − B (the sides' scores) > tolerance. */
  beyondTolerance: boolean;
  /** B is worse by the rule above. */
  worse: boolean;
  verdict: string;
}

/** Applies Holm (across the paired rows) and the rule; returns new rows in the same order. */
export function judgeRows(rows: DiffRow[], options: CompareRuleOptions = {}): CompareRow[] {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const maxDrop = (options.maxDrop ?? 0) / 100;
  const z = options.z ?? 2;
  const out = applyHolm(
    rows.map((r) => ({ ...r })),
    alpha,
  );
  return out.map((r) => {
    const tolerance = allowedDrop(r.a.score, r.a.n, options.maxDrop ?? 0, z);
    const beyondTolerance = r.a.score - r.b.score > tolerance + EPS;
    if (!r.paired) {
      return {
        ...r,
        rule: 'unpaired',
        tolerance,
        beyondTolerance,
        worse: beyondTolerance,
        verdict: beyondTolerance ? 'WORSE (beyond tolerance)' : 'within tolerance',
      };
    }
    const worse = r.significant && r.diff < 0 && -r.diff > maxDrop + EPS;
    const verdict = worse
      ? 'WORSE'
      : r.significant
        ? r.diff < 0
          ? 'worse, within --max-drop'
          : 'better'
        : 'no significant difference';
    return { ...r, rule: 'paired', tolerance, beyondTolerance, worse, verdict };
  });
}

/** One line stating the rule with the options' values. */
export function ruleText(options: CompareRuleOptions = {}, paired: number): string {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const drop = fmt2(options.maxDrop ?? 0);
  return (
    `rule: B is WORSE where B − A < 0 over shared sample ids is significant after Holm across the ${paired} paired rows (α = ${alpha}) and the drop exceeds --max-drop (${drop} points); ` +
    `rows with no shared ids: drop > max(${drop} points, ${options.z ?? 2}·sqrt(p(1-p)/n)) with A's p and n (the gate's rule)`
  );
}

export function compareColumns(alpha = DEFAULT_ALPHA): DiffColumn<CompareRow>[] {
  return [
    ...diffColumns<CompareRow>(alpha),
    { head: 'tolerance', cell: (r) => fmt2(r.tolerance * 100), numeric: true },
    { head: 'beyond tolerance', cell: (r) => (r.beyondTolerance ? 'yes' : 'no') },
    { head: 'verdict', cell: (r) => r.verdict },
  ];
}

export const COMPARE_CSV_EXTRA: Array<[string, (r: CompareRow) => string]> = [
  ['rule', (r) => r.rule],
  ['tolerance_x100', (r) => fmt2(r.tolerance * 100)],
  ['beyond_tolerance', (r) => (r.beyondTolerance ? 'yes' : 'no')],
  ['worse', (r) => (r.worse ? 'yes' : 'no')],
  ['verdict', (r) => r.verdict],
];

/** The printed result of `bench compare`: the sides, the rule, the table, the Holm sentence and the verdict line. */
export function formatCompare(
  rows: CompareRow[],
  options: CompareRuleOptions & { aName: string; bName: string; notes?: string[] },
): string {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const paired = rows.filter((r) => r.paired).length;
  const worse = rows.filter((r) => r.worse);
  const lines = [
    `A: ${options.aName}`,
    `B: ${options.bName}`,
    ruleText(options, paired),
    '',
    textTable(rows, compareColumns(alpha)),
    '',
    holmSentence(rows, alpha),
    `${PAIRED_NOTE}.`,
    ...(options.notes ?? []).map((n) => `note: ${n}`),
  ];
  lines.push(
    worse.length
      ? `compare: FAIL (B worse than A at ${worse.length} of ${plural(rows.length, 'row')}: ${worse.map((r) => `${r.task} ${r.b.label === r.a.label ? r.a.label : `${r.b.label} vs ${r.a.label}`} ${r.lengthLabel}`).join(', ')})`
      : `compare: PASS (${plural(rows.length, 'row')} compared, ${paired} paired; B is not worse than A at any)`,
  );
  return lines.join('\n');
}

/** One gate key's paired verdict, as `bench gate --paired` prints it. */
export function pairedGateMessage(r: CompareRow): string {
  return `${fmtSigned(r.diff)} points ${fmtDiffInterval(r)} over ${r.shared} shared ids, ${r.test === 'mcnemar-exact' ? 'McNemar' : 'sign-flip'} p = ${fmtP(r.p)}, Holm p = ${fmtP(r.pHolm)}: ${r.verdict}`;
}
