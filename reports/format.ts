// Display-edge formatting: scores are 0..1 everywhere inside; shown ×100 with 2 decimals, always through
// scorePercent (harness/protocol/round.ts): Python's round on the exact binary value (the MemAgent paper's
// 40.625 → 40.62, 46.875 → 46.88), and for a LongBench task's group score LongBench's round(100 * total / n, 2).
import { percentRuleOf, pyRound, scorePercent } from '../harness/protocol/round.js';

/** A mean (not a task's group score: see fmtScore) ×100, 2 decimals, as a fixed 2-decimal string. */
export function fmtPct(fraction: number): string {
  return Number.isFinite(fraction) ? scorePercent('mean', fraction).toFixed(2) : String(fraction);
}

/** A mean ×100, rounded to 2 decimals, as a number (for JSON/CSV at the display edge). */
export function pct(fraction: number): number {
  return scorePercent('mean', fraction);
}

/** What a group score shown by fmtScore needs: a summary row, or a baseline entry (mean and n only). */
export interface ScoredGroup {
  task: string;
  score: number;
  n: number;
  lengthKind?: string;
  scoreX100?: number;
}

/** A group's headline score ×100: the one summarize computed, else by its task's rule from its mean and n. */
export function rowPercent(r: ScoredGroup): number {
  return r.scoreX100 ?? scorePercent(percentRuleOf(r.task, r.lengthKind === 'bucket'), r.score, r.n);
}

/** A group's headline score ×100 as a fixed 2-decimal string (summary tables, report, view, gate messages). */
export function fmtScore(r: ScoredGroup): string {
  return fmt2(rowPercent(r));
}

/** Python's round(value, 2) (half-to-even on the exact decimal expansion of the double) as a fixed 2-decimal string. */
export function fmt2(value: number): string {
  // toFixed(2) of the rounded double prints its 2 decimals exactly; -0 prints as "0.00".
  return Number.isFinite(value) ? pyRound(value, 2).toFixed(2) : String(value);
}

/** True for the embedded lexical reader, whose ids start with "local:". */
export function isReferenceReaderId(modelId: string): boolean {
  return modelId.startsWith('local:');
}

export const REFERENCE_READER_LABEL = 'reference reader (not an LLM)';

/** Model label for reports: the id, plus the reference-reader note when it applies. */
export function modelLabel(modelId: string, isReferenceReader = isReferenceReaderId(modelId)): string {
  return isReferenceReader ? `${modelId} — ${REFERENCE_READER_LABEL}` : modelId;
}
