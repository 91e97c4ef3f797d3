// Checks the documents' markers against the claims: every checked marker has a claim and every claim a marker, every
// measured marker a way to re-measure it, and each claim's command output agrees with its marked text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIMS, type Claim, type ClaimContext, type Tier } from './claims.js';
import { compareMarker, type Expected } from './compare.js';
import { findMarkers, type Marker } from './markers.js';
import { MEASUREMENTS } from './measurements.js';

/** The documents whose numbers are checked (paths relative to the repository root). */
export const DOCS = ['README.md', 'docs/SIMULATION.md'];

export interface Finding {
  marker: string;
  where: string;
  command: string;
  problem: string;
}

/** Markers of every document; `texts` replaces a document's content (a mutated copy, in tests and --readme). */
export function scanDocs(root: string, texts: Record<string, string> = {}): { markers: Marker[]; problems: string[] } {
  const markers: Marker[] = [];
  const problems: string[] = [];
  for (const doc of DOCS) {
    const scan = findMarkers(doc, texts[doc] ?? readFileSync(join(root, doc), 'utf8'));
    markers.push(...scan.markers);
    problems.push(...scan.problems);
  }
  return { markers, problems };
}

/** Markers without a claim (or a way to re-measure), and claims whose marker is gone. */
export function coverageProblems(markers: Marker[], claims: Claim[] = CLAIMS): string[] {
  const out: string[] = [];
  const claimed = new Set(claims.map((c) => c.marker));
  for (const m of markers) {
    if (m.kind === 'checked' && !claimed.has(m.id))
      out.push(`${m.file}:${m.line}: "checked: ${m.id}" has no claim in scripts/readme/claims.ts`);
    if (m.kind === 'measured' && !(m.id in MEASUREMENTS))
      out.push(`${m.file}:${m.line}: "measured: ${m.id}" is not in scripts/readme/measurements.ts`);
  }
  const present = new Set(markers.filter((m) => m.kind === 'checked').map((m) => m.id));
  for (const id of new Set(claims.map((c) => c.marker)))
    if (!present.has(id)) out.push(`claim "${id}" has no <!-- checked: ${id} --> marker in ${DOCS.join(' or ')}`);
  for (const id of Object.keys(MEASUREMENTS))
    if (!markers.some((m) => m.kind === 'measured' && m.id === id))
      out.push(`measurement "${id}" has no <!-- measured: ${id} --> marker in ${DOCS.join(' or ')}`);
  return out;
}

/** Compares each marker of a claim with what the claim's command printed. */
export function compareClaim(claim: Claim, expected: Expected, markers: Marker[]): Finding[] {
  const mine = markers.filter((m) => m.kind === 'checked' && m.id === claim.marker);
  if (mine.length === 0)
    return [{ marker: claim.marker, where: '-', command: claim.command, problem: 'no marker in the documents' }];
  return mine.flatMap((m) => {
    const problem = compareMarker(m, expected);
    return problem ? [{ marker: m.id, where: `${m.file}:${m.line}`, command: claim.command, problem }] : [];
  });
}

/** Runs the claims of the given tiers (their commands) and returns every disagreement. */
export async function checkClaims(
  markers: Marker[],
  ctx: ClaimContext,
  tiers: Tier[],
  onClaim: (claim: Claim, findings: Finding[]) => void = () => {},
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const claim of CLAIMS.filter((c) => tiers.includes(c.tier))) {
    let found: Finding[];
    try {
      found = compareClaim(claim, await claim.expected(ctx), markers);
    } catch (e) {
      found = [{ marker: claim.marker, where: '-', command: claim.command, problem: (e as Error).message }];
    }
    onClaim(claim, found);
    findings.push(...found);
  }
  return findings;
}

export function formatFinding(f: Finding): string {
  return `${f.where}: ${f.marker}: ${f.problem}\n  (from: ${f.command})`;
}
