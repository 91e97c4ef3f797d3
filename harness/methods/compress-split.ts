// LongBench's summarisation compressor's text splitting (THUDM/LongBench LongBench/summ/compress.py get_word_list and
// data_spilt, sic), reproduced on code points as Python indexes them.

const WORD_RUN = /[\p{L}\p{N}_]+/gu;
const CJK = /[\u4e00-\u9fa5]/u;
const BREAKS = new Set(['\n', '.', '。', '?', '？', '!', '！']);
/** data_spilt scans this many characters from each cut's nominal length for a break. */
const SCAN = 1500;

/** get_word_len: words of the lower-cased text split on non-word characters, each CJK character its own word. */
export function wordCount(text: string): number {
  let n = 0;
  for (const m of text.toLowerCase().matchAll(WORD_RUN)) {
    let inRun = false;
    for (const ch of m[0]) {
      if (CJK.test(ch)) {
        n++;
        inRun = false;
      } else if (!inRun) {
        n++;
        inRun = true;
      }
    }
  }
  return n;
}

/** Whether most counted words are CJK characters (the compressor's Chinese instruction is then used). */
export function mostlyChinese(text: string): boolean {
  let cjk = 0;
  for (const ch of text) if (CJK.test(ch)) cjk++;
  return cjk * 2 > wordCount(text);
}

/**
 * data_spilt: split_len = int(words / maxWords) parts of about int(chars / split_len) characters, each cut just after
 * the first break character found in the SCAN characters from that length; past the end, the rest is one more part.
 * Returns null where upstream divides by zero (fewer than maxWords words): it then keeps the text as it is.
 */
export function splitForCompression(text: string, maxWords: number): string[] | null {
  const splitLen = Math.floor(wordCount(text) / maxWords);
  if (splitLen === 0) return null;
  const cps = Array.from(text);
  const textLen = Math.floor(cps.length / splitLen);
  const parts: string[] = [];
  let at = 0;
  const rest = () => cps.slice(at).join('');
  for (let num = 0; num <= splitLen; num++) {
    for (let i = textLen; i < textLen + SCAN; i++) {
      if (at + i >= cps.length) {
        const r = rest();
        if (!parts.includes(r)) parts.push(r);
        break;
      }
      if (BREAKS.has(cps[at + i])) {
        parts.push(cps.slice(at, at + i + 1).join(''));
        at += i + 1;
        break;
      }
    }
  }
  const r = rest();
  if (r !== '' && !parts.includes(r)) parts.push(r);
  return parts;
}
