// Whether two runs may be compared: their request fingerprints (harness/run-dir/request-fingerprint.ts) must agree
// unless --allow-protocol-change is given. Every differing field is named either way.
import { UserError } from '../harness/errors.js';
import { fingerprintDifferences, fingerprintOf } from '../harness/run-dir/request-fingerprint.js';

/**
 * The differences between A's and B's requests. Refused (a UserError naming each field) unless `allow`; with it, or
 * when they agree, the differences for a warning line. A side whose manifest records no fingerprint (made before
 * it was recorded, or a baseline file without one) is not checked.
 */
export function checkProtocolChange(
  a: { label: string; manifest: unknown },
  b: { label: string; manifest: unknown },
  allow: boolean,
): string[] {
  const fa = fingerprintOf(a.manifest);
  const fb = fingerprintOf(b.manifest);
  if (!fa || !fb) return [];
  const diffs = fingerprintDifferences(fa, fb);
  if (diffs.length > 0 && !allow)
    throw new UserError(
      `${a.label} and ${b.label} sent other requests, so their scores are not comparable: ${diffs.join('; ')}; rerun one with the other's settings, or pass --allow-protocol-change to compare anyway`,
    );
  return diffs;
}

/** The warning printed when --allow-protocol-change lets differing runs be compared. */
export function protocolChangeWarning(diffs: string[]): string {
  return `warning: comparing runs whose requests differ (--allow-protocol-change): ${diffs.join('; ')}`;
}
