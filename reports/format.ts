// Display-edge formatting: scores are 0..1 everywhere inside; shown as ×100 with 2 decimals, rounded half-to-even on
// the exact binary value, as Python's round(x, 2) does (the MemAgent paper's 40.625 → 40.62, 46.875 → 46.88).

/** ×100, rounded to 2 decimals (half-to-even on the exact value), as a fixed 2-decimal string. */
export function fmtPct(fraction: number): string {
  return fmt2(fraction * 100);
}

/** ×100, rounded to 2 decimals, as a number (for JSON/CSV at the display edge). */
export function pct(fraction: number): number {
  return Number(fmtPct(fraction));
}

/** Rounds to 2 decimals half-to-even on the exact decimal expansion of the double. */
export function fmt2(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const negative = value < 0;
  // toFixed(60) is the exact expansion for doubles of magnitude ≥ 2^-8 and ample precision for smaller ones.
  const [intPart, frac] = Math.abs(value).toFixed(60).split('.');
  let scaled = BigInt(intPart + frac.slice(0, 2));
  const rest = frac.slice(2);
  const first = rest.charCodeAt(0) - 48;
  const tail = rest.slice(1);
  const roundUp = first > 5 || (first === 5 && (/[1-9]/.test(tail) || scaled % 2n === 1n));
  if (roundUp) scaled += 1n;
  const whole = scaled / 100n;
  const cents = (scaled % 100n).toString().padStart(2, '0');
  const sign = negative && scaled !== 0n ? '-' : '';
  return `${sign}${whole}.${cents}`;
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
