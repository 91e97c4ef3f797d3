// The eight RULER NIAH variants (docs/PROTOCOLS.md §c.1; NVIDIA/RULER@c3f5e3b scripts/synthetic.yaml).

export type HaystackKind = 'noise' | 'essay' | 'needle';

export interface NiahSpec {
  name: string;
  haystack: HaystackKind;
  keyKind: 'words' | 'uuids';
  valueKind: 'numbers' | 'uuids';
  /** Real needles' keys (raised to at least `queries`, as RULER does). */
  keys: number;
  valuesPerKey: number;
  queries: number;
}

function spec(
  name: string,
  haystack: HaystackKind,
  keyKind: NiahSpec['keyKind'],
  valueKind: NiahSpec['valueKind'],
  keys: number,
  valuesPerKey: number,
  queries: number,
): NiahSpec {
  return { name, haystack, keyKind, valueKind, keys: Math.max(keys, queries), valuesPerKey, queries };
}

export const NIAH_SPECS: readonly NiahSpec[] = [
  spec('niah_single_1', 'noise', 'words', 'numbers', 1, 1, 1),
  spec('niah_single_2', 'essay', 'words', 'numbers', 1, 1, 1),
  spec('niah_single_3', 'essay', 'words', 'uuids', 1, 1, 1),
  spec('niah_multikey_1', 'essay', 'words', 'numbers', 4, 1, 1),
  spec('niah_multikey_2', 'needle', 'words', 'numbers', 1, 1, 1),
  spec('niah_multikey_3', 'needle', 'uuids', 'uuids', 1, 1, 1),
  spec('niah_multivalue', 'essay', 'words', 'numbers', 1, 4, 1),
  spec('niah_multiquery', 'essay', 'words', 'numbers', 4, 1, 4),
];

/** round(linspace(0, 100, 40)): the depth grid (percent) that needle depths are drawn from without replacement. */
export const DEPTHS: readonly number[] = Array.from({ length: 40 }, (_, i) => roundHalfEven((100 * i) / 39));

/** numpy.round rounds halves to even; no grid point is an exact half, but keep the rule explicit. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export const TOKENS_TO_GENERATE = 128;
