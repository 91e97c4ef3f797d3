import * as crypto from 'node:crypto';

/** sha256 of a string's UTF-8, in hex. crypto.hash (Node ≥ 20.12) skips building a Hash object, most of the cost for
 *  a few KB, and this runs once per model call. */
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');
