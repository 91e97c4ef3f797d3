import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  afterLastThink,
  DEEPSEEK_TOKENS,
  extractBoxedAnswer,
  extractPhraseAnswer,
  takeAnswer,
} from '../../../harness/protocol/answer.js';

describe('extractPhraseAnswer (MemAgent a.6)', () => {
  it('takes what follows the phrase, stripping whitespace and dots', () => {
    assert.equal(extractPhraseAnswer('Reasoning first. Therefore, the answer is Paris.'), 'Paris');
    assert.equal(extractPhraseAnswer('  the answer is   ..Paris..  \n'), 'Paris');
  });

  it('is case-sensitive: "The answer is" does not match', () => {
    assert.equal(extractPhraseAnswer('The answer is Paris.'), null);
    assert.equal(extractPhraseAnswer('THE ANSWER IS Paris'), null);
    assert.equal(extractPhraseAnswer('no phrase at all'), null);
  });

  it('keeps newlines (and everything else) after the phrase', () => {
    assert.equal(extractPhraseAnswer('the answer is Paris\nLondon is wrong.'), 'Paris\nLondon is wrong');
    assert.equal(extractPhraseAnswer('the answer is: Paris'), ': Paris');
  });

  it('uses the last occurrence', () => {
    assert.equal(extractPhraseAnswer('First the answer is A. On reflection, the answer is B.'), 'B');
  });

  it('removes every asterisk before searching', () => {
    assert.equal(extractPhraseAnswer('So **the answer is** **Paris**.'), 'Paris');
    assert.equal(extractPhraseAnswer('the ans*wer is 42'), '42');
  });

  it('reads after the last </think>, falling back to the whole response when nothing follows it', () => {
    assert.equal(extractPhraseAnswer('<think>the answer is X</think>\nSo the answer is Y.'), 'Y');
    assert.equal(extractPhraseAnswer('<think>the answer is X</think> The answer is Y.'), null);
    assert.equal(extractPhraseAnswer('<think>a</think><think>the answer is X</think>the answer is Z'), 'Z');
    // Upstream quirk: an empty tail makes it search the whole response, think block included.
    assert.equal(extractPhraseAnswer('<think>the answer is X</think>'), 'X</think>');
    // The phrase between the first and the last </think> is not read (upstream: split('</think>')[-1]).
    assert.equal(extractPhraseAnswer('<think>a</think>the answer is X</think>no phrase after the last close'), null);
    assert.equal(afterLastThink('a</think>b</think> c '), 'c');
  });

  it("strips whitespace again after stripping dots (upstream: .strip().strip('.').strip())", () => {
    // Checked against upstream's extract_solution + extract_answer run by python3.
    assert.equal(extractPhraseAnswer('the answer is Paris .'), 'Paris');
    assert.equal(extractPhraseAnswer('the answer is . Paris'), 'Paris');
  });

  it('deletes the DeepSeek <｜Assistant｜> and <｜end▁of▁sentence｜> tokens, then strips dots', () => {
    assert.equal(extractPhraseAnswer(`the answer is Paris.${DEEPSEEK_TOKENS[1]}`), 'Paris');
    assert.equal(extractPhraseAnswer(`the answer is ${DEEPSEEK_TOKENS[0]}Paris`), 'Paris');
    assert.equal(DEEPSEEK_TOKENS[1], '<｜end▁of▁sentence｜>');
    // Not in upstream's list, so it stays.
    assert.equal(extractPhraseAnswer('the answer is <｜begin▁of▁sentence｜>Paris'), '<｜begin▁of▁sentence｜>Paris');
  });

  it('can return an empty answer, which scorers treat as no answer', () => {
    assert.equal(extractPhraseAnswer('the answer is ...'), '');
    assert.equal(extractPhraseAnswer('   '), null);
  });
});

describe('extractBoxedAnswer', () => {
  it('returns the content of the last \\boxed{} with balanced braces', () => {
    assert.equal(extractBoxedAnswer('x \\boxed{1} then \\boxed{a{b}c} end'), 'a{b}c');
    assert.equal(extractBoxedAnswer('\\boxed{\\frac{1}{2}}'), '\\frac{1}{2}');
  });

  it('returns null when there is no complete group', () => {
    assert.equal(extractBoxedAnswer('no box here'), null);
    assert.equal(extractBoxedAnswer('\\boxed{unclosed'), null);
    assert.equal(extractBoxedAnswer('\\fbox{3}'), null);
  });

  it('handles upstream\'s "\\boxed " (space) form', () => {
    assert.equal(extractBoxedAnswer('so $\\boxed 5$ done'), '5');
  });
});

describe('afterLastThink (MemAgent memory and extract_solution)', () => {
  it('is the text after the last </think>, Python-stripped', () => {
    assert.equal(afterLastThink('<think>a</think>x</think>  mem  \n'), 'mem');
    assert.equal(afterLastThink('<think>plan</think>\n\nDocument 3 says X.\n'), 'Document 3 says X.');
    assert.equal(afterLastThink('<think>only thinking</think>'), '');
  });

  it('is the whole reply, unchanged (not stripped), when there is no </think>', () => {
    assert.equal(afterLastThink('  m  '), '  m  ');
    assert.equal(afterLastThink('\u3000memory\u00a0\n'), '\u3000memory\u00a0\n');
    assert.equal(afterLastThink('<think>unclosed memory'), '<think>unclosed memory');
  });
});

describe('takeAnswer', () => {
  it('extracts per the answer format (phrase by default, boxed, raw)', () => {
    assert.equal(takeAnswer('So the answer is Paris.', undefined), 'Paris');
    assert.equal(takeAnswer('So the answer is Paris.', 'phrase'), 'Paris');
    assert.equal(takeAnswer('x \\boxed{Paris}', 'boxed'), 'Paris');
    assert.equal(takeAnswer(' raw text \n', 'raw'), ' raw text \n');
  });
});
