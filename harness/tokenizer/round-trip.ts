const NON_ASCII = /[^\x00-\x7f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether decoding the encoding of `text` gives `text` back, for every tokenizer here (byte-level BPE): true when
 * the text is well-formed UTF-16 (a lone surrogate encodes as U+FFFD) and NFC-stable (Qwen's encoder normalises
 * to NFC first).
 */
export function roundTrips(text: string): boolean {
  if (!NON_ASCII.test(text)) return true;
  return !LONE_SURROGATE.test(text) && text.normalize('NFC') === text;
}
