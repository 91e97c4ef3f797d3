// LongBench v1's Chinese metrics (THUDM/LongBench LongBench/metrics.py): qa_f1_zh_score and rouge_zh_score, both on
// jieba's accurate-mode segmentation (`jieba.cut(text, cut_all=False)`: default dictionary, HMM on for unknown words).
// The segmentation is Python jieba's, ported in jieba.ts.
import { tokenF1 } from '../../harness/scorers/qa.js';
import { jiebaCut } from './jieba.js';
import { rougeLFLongBench } from './rouge-pltrdy.js';

/** normalize_zh_answer's Chinese punctuation, verbatim (it has 》 but not 《, and ends with an ASCII '.'). */
export const CN_PUNCTUATION =
  '！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘’‛“”„‟…‧﹏.';

const ALL_PUNCTUATION: ReadonlySet<string> = new Set([...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', ...CN_PUNCTUATION]);

// Python's str.split() separators: Unicode whitespace plus the ASCII separators \x1c-\x1f.
const PY_WHITESPACE = /[\s\x1c-\x1f\x85]/u;

/** normalize_zh_answer: lower-case, drop ASCII and the Chinese punctuation above, remove all whitespace. */
export function normalizeZhAnswer(s: string): string {
  let out = '';
  for (const ch of s.toLowerCase()) if (!ALL_PUNCTUATION.has(ch) && !PY_WHITESPACE.test(ch)) out += ch;
  return out;
}

/** qa_f1_zh_score: token F1 over jieba tokens, each normalised, empty ones dropped. */
export function qaF1Zh(prediction: string, gold: string): number {
  const tokens = (text: string) =>
    jiebaCut(text)
      .map(normalizeZhAnswer)
      .filter((t) => t.length > 0);
  return tokenF1(tokens(prediction), tokens(gold)).f1;
}

/** rouge_zh_score: both sides as `" ".join(jieba.cut(text, cut_all=False))`, then LongBench's rouge_score. */
export function rougeZh(prediction: string, gold: string): number {
  return rougeLFLongBench(jiebaCut(prediction).join(' '), jiebaCut(gold).join(' '));
}
