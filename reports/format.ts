// Display-edge formatting: scores are 0..1 everywhere inside; shown as ×100 with 2 decimals, rounded half-to-even on
// the exact binary value, as Python's round(x, 2) does (the MemAgent paper's 40.625 → 40.62, 46.875 → 46.88).
import { pyRound, toPercent } from '../harness/protocol/round.js';

/** ×100, rounded to 2 decimals (half-to-even on the exact value), as a fixed 2-decimal string. */
export function fmtPct(fraction: number): string {
  return fmt2(fraction * 100);
}

/** ×100, rounded to 2 decimals, as a number (for JSON/CSV at the display edge). */
export function pct(fraction: number): number {
  return toPercent(fraction);
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
