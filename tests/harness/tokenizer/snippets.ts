// Deterministic test snippets for the tokenizer: hand-picked edge cases and seeded random mixes of hard characters.
import { mulberry32 } from '../../../harness/prng.js';

/** Seeded PRNG (mulberry32). */
export const rng = mulberry32;

export const EDGE_CASES: string[] = [
  '',
  'Hello world',
  '\ufeffHello world',
  'Hello\ufeffworld',
  'a \ufeffb',
  '\ufeff \ufeffa',
  'x \ufeff\ufeff y',
  'a\u0085b',
  'x \u0085y',
  ' \u0085a',
  'a\u0085 b\u0085\u0085 c\u0085\nd',
  'a\u00a0b \u00a0 c\u00a0\u00a0d\u00a0\u00a0\u00a0 e',
  'a\u2028b\u2029c \u2028 d',
  '中\u3000文 \u3000 x\u3000\u3000y',
  'a\t\tb\t \tc\r\n\r\nd  \n\n  e   ',
  'line one\r\nline two\r\n\r\n\r\n  indented\n\t\ttabbed\n',
  '     leading spaces and trailing     ',
  '\n\n\n',
  "it's we'll they're I've I'm he'd IT'S WE'LL it'ſ x'ſx",
  'x<|im_end|>y <|endoftext|> <|im_start|>user\nhi<|im_end|>\n',
  '<|endoftext|>',
  '<|im_end|>',
  'e\u0301 cafe\u0301 A\u030a n\u0303o \u1100\u1161\u11a8 \u212a \u212b \u2126',
  'Ame\u0301lie Zoe\u0308 Bjo\u0308rk Sa\u0303o Paulo',
  '👍🏽 👨‍👩‍👧 🇯🇵!! 😀😀😀',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛',
  '1234567 3.14159 1,000,000 -42 ٣٤٥ ²³ ½ ⅷ',
  '龘 ﬀ ﬁ Ⅻ ㈱ ｆｕｌｌｗｉｄｔｈ',
  'Привет, мир! Γειά σου Κόσμε. שלום עולם. مرحبا بالعالم',
  '日本語のテキスト、句読点。中文文本，标点符号。한국어 텍스트.',
  'a\u000b\u000cb\u001c\u001d\u001e\u001fc',
  'a\u1680b\u180ec\u200bd\u200c\u200de\u202ff\u205fg',
  'https://example.com/path?q=1&r=two#frag user@example.org',
  'def f(x):\n    return x  # comment\n\n\nclass A:\n\tpass\n',
  '----- ===== ***** ..... ,,,,, !!!!! ?????',
  '"quoted" \'single\' «guillemets» „low“ (paren) [bracket] {brace}',
];

const WORDS = ['the', 'The', ' of', 'and', 'HotpotQA', 'memory', 'naïve', 'Zürich', 'São', 'Ωmega', 'x', 'IBM', 'don', 'It'];
const HARD = [
  ' ', ' ', ' ', '  ', '\t', '\n', '\n\n', '\r\n', '\r', '\u00a0', '\u0085', '\ufeff', '\u2028', '\u2029', '\u3000',
  '\u200b', '\u180e', '\u1680', '\u202f', '\u205f', '\u000b', '\u000c',
  '\u0301', '\u0308', '\u030a', '\u0303', 'e\u0301', 'A\u030a', '\u1100\u1161', '\u11a8', '\u212a', '\u212b', '\u2126',
  "'s", "'S", "'ll", "'LL", "'re", "'ve", "'m", "'d", "'t", "'ſ", "'", '`',
  '0', '7', '42', '2024', '3.5', '٣', '²', '½',
  '.', ',', '!', '?', '-', '—', '…', '"', '(', ')', '/', '\\', '#', '$', '%', '&', '*', '<', '>', '|', '_', '~',
  '<|im_end|>', '<|endoftext|>', '<|im_start|>', '<|', '|>',
  '中', '文', '日本', 'の', '한', 'ж', 'λ', 'ש', 'ع', 'ก', '👍', '🏽', '\u200d', '😀', '🇯', '🇵', '𝔘', '\ufffd',
];

/**
 * Seeded random snippets mixing words with hard characters (valid UTF-16: no lone surrogates). `without` drops
 * the hard items that contain any of its characters.
 */
export function fuzzSnippets(count: number, seed: number, without = ''): string[] {
  const rand = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const hard = HARD.filter((h) => ![...without].some((c) => h.includes(c)));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    const len = 1 + Math.floor(rand() * 40);
    for (let j = 0; j < len; j++) parts.push(rand() < 0.35 ? pick(WORDS) : pick(hard));
    out.push(parts.join(''));
  }
  return out;
}
