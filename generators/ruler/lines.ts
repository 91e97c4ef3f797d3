// Line haystacks (RULER `noise` and `needle`): one filler line per unit, joined with "\n".
//
// Token ids are composed from cached parts instead of encoding each line: a noise line is always the same, and a
// distractor needle `One of the special magic {type} for {key} is: {value}.` is split at pre-tokenizer boundaries
// (before " {key}", " is:", " {value}", "."), so its ids are head + key + " is:" + value + ".\n". The split is checked
// against whole-line encodings when the codec is built.
import type { Tokenizer } from '../../harness/types.js';
import type { Rng } from '../../harness/util/rng.js';
import { equalIds } from './essay.js';
import { drawValue, drawWordKey, type WordLists } from './keys.js';
import { uuid4 } from '../../harness/util/rng.js';
import { needleSentence, NOISE_LINE } from './text.js';

const EMPTY = new Uint32Array(0);

export interface NoiseCodec {
  text: string;
  /** Ids of the line followed by "\n". */
  nl: Uint32Array;
  /** Ids of the line without "\n" (the context's last element). */
  last: Uint32Array;
}

const noiseCache = new WeakMap<Tokenizer, NoiseCodec>();

export function noiseCodec(tokenizer: Tokenizer): NoiseCodec {
  let c = noiseCache.get(tokenizer);
  if (!c) {
    const nl = tokenizer.encode(NOISE_LINE + '\n');
    const twice = tokenizer.encode(NOISE_LINE + '\n' + NOISE_LINE + '\n');
    if (twice.length !== 2 * nl.length || !equalIds(twice.subarray(nl.length), nl)) {
      throw new Error(
        `tokenizer ${tokenizer.id} merges tokens across noise lines; the noise haystack cannot be streamed with it`,
      );
    }
    c = { text: NOISE_LINE, nl, last: tokenizer.encode(NOISE_LINE) };
    noiseCache.set(tokenizer, c);
  }
  return c;
}

/** One distractor line: its text and ids with the trailing newline. */
export interface DistractorLine {
  key: string;
  value: string;
  text: string;
  ids: Uint32Array;
}

/**
 * Encodes short ASCII strings (keys and values) pre-token by pre-token with a memo, using the Qwen2 pre-tokenizer
 * pattern. Only used after `check` has confirmed that it reproduces tokenizer.encode on random samples; a tokenizer
 * with other pre-tokenization rules (e.g. digit groups) falls back to plain encode.
 */
class PretokenMemo {
  private static readonly PATTERN =
    /'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
  private readonly memo = new Map<string, Uint32Array>();
  enabled = false;
  constructor(private readonly tokenizer: Tokenizer) {}

  encode(text: string): Uint32Array {
    if (!this.enabled) return this.tokenizer.encode(text);
    const parts = text.match(PretokenMemo.PATTERN) ?? [];
    if (parts.length === 1) return this.piece(parts[0]);
    const ids: Uint32Array[] = new Array(parts.length);
    let len = 0;
    for (let i = 0; i < parts.length; i++) {
      ids[i] = this.piece(parts[i]);
      len += ids[i].length;
    }
    const out = new Uint32Array(len);
    let at = 0;
    for (let i = 0; i < ids.length; i++) {
      out.set(ids[i], at);
      at += ids[i].length;
    }
    return out;
  }

  private piece(p: string): Uint32Array {
    let ids = this.memo.get(p);
    if (!ids) {
      if (this.memo.size > 200_000) this.memo.clear();
      ids = this.tokenizer.encode(p);
      this.memo.set(p, ids);
    }
    return ids;
  }

  /** Turns the memo on if it agrees with the tokenizer on every sample. */
  check(samples: readonly string[]): void {
    this.enabled = true;
    for (const s of samples) {
      if (!equalIds(this.encode(s), this.tokenizer.encode(s))) {
        this.enabled = false;
        this.memo.clear();
        return;
      }
    }
  }
}

export class DistractorCodec {
  private readonly head: Uint32Array;
  private readonly mid: Uint32Array;
  readonly endNl: Uint32Array;
  readonly end: Uint32Array;
  private readonly adjIds: Uint32Array[] = [];
  private readonly nounIds: Uint32Array[] = [];
  private readonly memo: PretokenMemo;

  constructor(
    private readonly tokenizer: Tokenizer,
    readonly keyKind: 'words' | 'uuids',
    readonly valueKind: 'numbers' | 'uuids',
    private readonly words: WordLists,
  ) {
    this.head = tokenizer.encode(`One of the special magic ${valueKind} for`);
    this.mid = tokenizer.encode(' is:');
    this.endNl = tokenizer.encode('.\n');
    this.end = tokenizer.encode('.');
    this.memo = new PretokenMemo(tokenizer);
    if (keyKind === 'words') {
      for (const a of words.adjectives) this.adjIds.push(tokenizer.encode(' ' + a));
      for (const n of words.nouns) this.nounIds.push(tokenizer.encode('-' + n));
    }
  }

  /** Draws the next line of a stream; keys in `avoidKeys` and values in `avoidValues` are redrawn. */
  draw(rng: Rng, avoidKeys: ReadonlySet<string>, avoidValues: ReadonlySet<string>): DistractorLine {
    for (let guard = 0; guard < 1000; guard++) {
      let key: string;
      let keyIds: Uint32Array[];
      if (this.keyKind === 'words') {
        const k = drawWordKey(rng, this.words);
        key = `${this.words.adjectives[k.adjective]}-${this.words.nouns[k.noun]}`;
        keyIds = [this.adjIds[k.adjective], this.nounIds[k.noun]];
      } else {
        key = uuid4(rng);
        keyIds = [this.memo.encode(' ' + key)];
      }
      const value = drawValue(rng, this.valueKind);
      if (avoidKeys.has(key) || avoidValues.has(value)) continue;
      const valueIds = this.memo.encode(' ' + value);
      const { head, mid, endNl } = this;
      const k0 = keyIds[0];
      const k1 = keyIds.length > 1 ? keyIds[1] : EMPTY;
      const ids = new Uint32Array(head.length + k0.length + k1.length + mid.length + valueIds.length + endNl.length);
      let at = 0;
      ids.set(head, at);
      ids.set(k0, (at += head.length));
      ids.set(k1, (at += k0.length));
      ids.set(mid, (at += k1.length));
      ids.set(valueIds, (at += mid.length));
      ids.set(endNl, at + valueIds.length);
      return { key, value, text: needleSentence(this.valueKind, key, value), ids };
    }
    throw new Error('could not draw a distractor needle that avoids the real keys and values');
  }

  /** Checks the composed ids against whole-line encodings (with and without the newline, and across two lines). */
  verify(rng: Rng): void {
    const probes: string[] = [];
    for (let i = 0; i < 64; i++) probes.push(' ' + drawValue(rng, this.valueKind), ' ' + uuid4(rng));
    this.memo.check(probes);
    const none = new Set<string>();
    let prev: DistractorLine | undefined;
    for (let i = 0; i < 24; i++) {
      const line = this.draw(rng, none, none);
      const ok =
        equalIds(this.tokenizer.encode(line.text + '\n'), line.ids) &&
        equalIds(this.tokenizer.encode(line.text), this.withoutNewline(line.ids)) &&
        (!prev ||
          this.tokenizer.encode(prev.text + '\n' + line.text + '\n').length === prev.ids.length + line.ids.length);
      if (!ok)
        throw new Error(
          `tokenizer ${this.tokenizer.id} does not split needle lines at word boundaries; the needle haystack cannot be composed with it`,
        );
      prev = line;
    }
  }

  /** The ids of a line without its trailing newline. */
  withoutNewline(ids: Uint32Array): Uint32Array {
    const out = new Uint32Array(ids.length - this.endNl.length + this.end.length);
    out.set(ids.subarray(0, ids.length - this.endNl.length));
    out.set(this.end, ids.length - this.endNl.length);
    return out;
  }
}

const distractorCache = new WeakMap<Tokenizer, Map<string, DistractorCodec>>();

export function distractorCodec(
  tokenizer: Tokenizer,
  keyKind: 'words' | 'uuids',
  valueKind: 'numbers' | 'uuids',
  words: WordLists,
  verifyRng: Rng,
): DistractorCodec {
  let byKind = distractorCache.get(tokenizer);
  if (!byKind) distractorCache.set(tokenizer, (byKind = new Map()));
  const name = `${keyKind}/${valueKind}`;
  let codec = byKind.get(name);
  if (!codec) {
    codec = new DistractorCodec(tokenizer, keyKind, valueKind, words);
    codec.verify(verifyRng);
    byKind.set(name, codec);
  }
  return codec;
}
