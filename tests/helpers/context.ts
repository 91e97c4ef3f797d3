import type { GeneratedSample } from '../../harness/types.js';

/** A sample's streamed context ids, joined into one array (to compare with encoding the joined text). */
export function concatIds(s: GeneratedSample): Uint32Array {
  const parts = [...s.context.pieces()];
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
