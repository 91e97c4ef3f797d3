import { UserError } from '../../harness/errors.js';

/** Context-distribution probe: relative positions of the two supporting paragraphs (docs/PROTOCOLS.md §d, our design). */
export const PLACEMENTS = ['0-100', '20-80', '40-60', '0-20', '80-100', 'random'] as const;
export type Placement = (typeof PLACEMENTS)[number];

export function parsePlacement(raw: string | undefined): Placement {
  if (raw === undefined) return 'random';
  if ((PLACEMENTS as readonly string[]).includes(raw)) return raw as Placement;
  throw new UserError(`bad --placement '${raw}': use one of ${PLACEMENTS.join(', ')}`);
}

/** The two relative positions (0..1) of a placement, or null for the ordinary random shuffle. */
export function placementPositions(p: Placement): [number, number] | null {
  if (p === 'random') return null;
  const [a, b] = p.split('-').map((x) => Number(x) / 100);
  return [a, b];
}
