// Python jieba 0.42.1's accurate mode, `jieba.cut(text, cut_all=False)` with HMM on (fxsjy/jieba jieba/__init__.py
// Tokenizer.cut, __cut_DAG, get_DAG, calc; jieba/finalseg/__init__.py cut, viterbi), ported line for line because
// LongBench's Chinese metrics are defined on its tokens. The dictionary is jieba's dict.txt as @node-rs/jieba ships
// it; the HMM tables are jieba's finalseg probabilities (datasets/jieba). @node-rs/jieba's own cut (jieba-rs) splits
// some hyphenated letter-digit runs differently from Python jieba, which moves LongBench scores (docs/PROTOCOLS.md
// §e.7), so only its dictionary is used.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dict } from '@node-rs/jieba/dict.js';
import { datasetPath } from '../../harness/paths.js';
import { lnInteger } from './jieba-log.js';

interface Dictionary {
  /** Word → frequency; every prefix of a word is present, with 0 when it is not a word itself (gen_pfdict). */
  freq: Map<string, number>;
  /** Sum of the frequencies of dict.txt's lines, jieba's `self.total`. */
  total: number;
  logTotal: number;
}

type State = 'B' | 'M' | 'E' | 'S';

interface HmmModel {
  start: Record<State, number>;
  trans: Record<State, Partial<Record<State, number>>>;
  emit: Record<State, Map<string, number>>;
}

let dictionary: Dictionary | undefined;
let hmm: HmmModel | undefined;

// jieba's own dict.txt (fxsjy/jieba@67fa2e3, blob fc6075f) is @node-rs/jieba's 349,045 lines plus a second
// `B超 3 n` line. gen_pfdict adds every line's frequency to the total, so jieba's total is 3 higher; the total sets
// how floating-point ties fall in calc (a run like 阳阳阳阳阳 splits differently without it).
const REPEATED_LINE_FREQ = 3;

/** gen_pfdict over dict.txt: `word freq [tag]` per line. */
function loadDictionary(): Dictionary {
  const freq = new Map<string, number>();
  let total = 0;
  for (const raw of new TextDecoder('utf-8').decode(dict).split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const [word, count] = line.split(' ');
    const f = Number.parseInt(count, 10);
    freq.set(word, f);
    total += f;
    for (let ch = 1; ch < word.length; ch++) {
      const frag = word.slice(0, ch);
      if (!freq.has(frag)) freq.set(frag, 0);
    }
  }
  total += REPEATED_LINE_FREQ;
  return { freq, total, logTotal: lnInteger(total) };
}

function loadHmm(): HmmModel {
  const file = datasetPath('jieba', 'hmm-model.json.gz');
  const raw = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as {
    start: Record<State, number>;
    trans: Record<State, Partial<Record<State, number>>>;
    emit: Record<State, Record<string, number>>;
  };
  const emit = {} as Record<State, Map<string, number>>;
  for (const s of ['B', 'M', 'E', 'S'] as const) emit[s] = new Map(Object.entries(raw.emit[s]));
  return { start: raw.start, trans: raw.trans, emit };
}

const MIN_FLOAT = -3.14e100;
const STATES: readonly State[] = ['B', 'M', 'E', 'S'];
const PREV_STATUS: Readonly<Record<State, readonly State[]>> = {
  B: ['E', 'S'],
  M: ['M', 'B'],
  S: ['S', 'E'],
  E: ['B', 'M'],
};

/** finalseg.viterbi: the best B/M/E/S path. Python's max over (prob, state) tuples breaks ties by the larger state. */
function viterbi(obs: readonly string[], model: HmmModel): State[] {
  let prev = new Map<State, number>();
  let path = new Map<State, State[]>();
  for (const y of STATES) {
    prev.set(y, model.start[y] + (model.emit[y].get(obs[0]) ?? MIN_FLOAT));
    path.set(y, [y]);
  }
  for (let t = 1; t < obs.length; t++) {
    const cur = new Map<State, number>();
    const next = new Map<State, State[]>();
    for (const y of STATES) {
      const em = model.emit[y].get(obs[t]) ?? MIN_FLOAT;
      let best: [number, State] | undefined;
      for (const y0 of PREV_STATUS[y]) {
        const p = prev.get(y0)! + (model.trans[y0][y] ?? MIN_FLOAT) + em;
        if (best === undefined || p > best[0] || (p === best[0] && y0 > best[1])) best = [p, y0];
      }
      cur.set(y, best![0]);
      next.set(y, [...path.get(best![1])!, y]);
    }
    prev = cur;
    path = next;
  }
  const e = prev.get('E')!;
  const s = prev.get('S')!;
  return path.get(s >= e ? 'S' : 'E')!;
}

/** finalseg.__cut: words from the B/M/E/S tags of a run of Han characters. */
function hmmCutHan(sentence: string, out: string[]): void {
  const chars = Array.from(sentence);
  const tags = viterbi(chars, (hmm ??= loadHmm()));
  let begin = 0;
  let nexti = 0;
  chars.forEach((ch, i) => {
    const pos = tags[i];
    if (pos === 'B') begin = i;
    else if (pos === 'E') {
      out.push(chars.slice(begin, i + 1).join(''));
      nexti = i + 1;
    } else if (pos === 'S') {
      out.push(ch);
      nexti = i + 1;
    }
  });
  if (nexti < chars.length) out.push(chars.slice(nexti).join(''));
}

const FINALSEG_HAN = /([\u4E00-\u9FD5]+)/;
const FINALSEG_SKIP = /([a-zA-Z0-9]+(?:\.\d+)?%?)/;
const IS_FINALSEG_HAN = /^[\u4E00-\u9FD5]/;

/** finalseg.cut: HMM over Han runs; other text split around letter-digit runs, empty pieces dropped. */
function finalsegCut(sentence: string, out: string[]): void {
  for (const blk of sentence.split(FINALSEG_HAN)) {
    if (IS_FINALSEG_HAN.test(blk)) hmmCutHan(blk, out);
    else for (const x of blk.split(FINALSEG_SKIP)) if (x !== '') out.push(x);
  }
}

/** Tokenizer.get_DAG + calc: for each position the end of the word on the best path (max log-frequency sum). */
function bestRoute(sentence: string, d: Dictionary): number[] {
  const n = sentence.length;
  const score = new Float64Array(n + 1);
  const end = new Array<number>(n + 1).fill(0);
  for (let idx = n - 1; idx >= 0; idx--) {
    // DAG[idx]: ends i of the dictionary words sentence[idx..i] (frequency > 0), else [idx].
    const ends: number[] = [];
    let i = idx;
    let frag = sentence[idx];
    while (i < n && d.freq.has(frag)) {
      if (d.freq.get(frag)) ends.push(i);
      i++;
      frag = sentence.slice(idx, i + 1);
    }
    if (ends.length === 0) ends.push(idx);
    let bestScore = -Infinity;
    let bestEnd = -1;
    for (const x of ends) {
      const s = lnInteger(d.freq.get(sentence.slice(idx, x + 1)) || 1) - d.logTotal + score[x + 1];
      // max((score, x)): ties go to the larger x, which comes later in the list.
      if (s > bestScore || (s === bestScore && x > bestEnd)) {
        bestScore = s;
        bestEnd = x;
      }
    }
    score[idx] = bestScore;
    end[idx] = bestEnd;
  }
  return end;
}

/** Tokenizer.__cut_DAG: dictionary words on the best route; runs of single characters not in the dictionary go to
 *  the HMM. A block holds only Han (U+4E00-U+9FD5) and ASCII characters, so string indices are code points. */
function cutDag(sentence: string, out: string[]): void {
  const d = (dictionary ??= loadDictionary());
  const route = bestRoute(sentence, d);
  const flush = (buf: string) => {
    if (buf.length === 1) out.push(buf);
    else if (!d.freq.get(buf)) finalsegCut(buf, out);
    else for (const ch of buf) out.push(ch);
  };
  let x = 0;
  let buf = '';
  while (x < sentence.length) {
    const y = route[x] + 1;
    const word = sentence.slice(x, y);
    if (y - x === 1) buf += word;
    else {
      if (buf !== '') flush(buf);
      buf = '';
      out.push(word);
    }
    x = y;
  }
  if (buf !== '') flush(buf);
}

const HAN_DEFAULT = /([\u4E00-\u9FD5a-zA-Z0-9+#&._%-]+)/;
const IS_HAN_DEFAULT = /^[\u4E00-\u9FD5a-zA-Z0-9+#&._%-]/;
// re_skip_default "(\r\n|\s)": \s is Python's Unicode whitespace (str.isspace), not JS's.
const PY_SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SKIP_DEFAULT = new RegExp(`(\\r\\n|[${PY_SPACE}])`);
const IS_SKIP_DEFAULT = new RegExp(`^(?:\\r\\n|[${PY_SPACE}])`);

/** `list(jieba.cut(text, cut_all=False))` of Python jieba 0.42.1 (default dictionary, HMM on). */
export function jiebaCut(text: string): string[] {
  const out: string[] = [];
  for (const blk of text.split(HAN_DEFAULT)) {
    if (blk === '') continue;
    if (IS_HAN_DEFAULT.test(blk)) cutDag(blk, out);
    else
      for (const x of blk.split(SKIP_DEFAULT)) {
        if (IS_SKIP_DEFAULT.test(x)) out.push(x);
        else for (const ch of x) out.push(ch);
      }
  }
  return out;
}

/** jieba's `Tokenizer.total` for the dictionary in use (Python jieba 0.42.1: 60,101,967). */
export function jiebaDictionaryTotal(): number {
  return (dictionary ??= loadDictionary()).total;
}
