// Counts as people read them: 1,002,341,183 rather than 1002341183 (en-US grouping, the same on every machine).

/** An integer with thousands separators ("1,024", "-12,500"); non-integers are rounded, non-finite values printed. */
export function fmtInt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const n = Math.round(value);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
