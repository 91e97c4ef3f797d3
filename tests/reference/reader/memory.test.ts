// The reader's memory text format: provenance lines and the carried unfinished tail.

import { test } from 'vitest';
import assert from 'node:assert/strict';
import { EMPTY_MEMORY, formatCarry, formatGroups, parseMemory } from '../../../reference/reader/memory.js';
import { keyOf } from '../../../reference/reader/text.js';

test('memory lines round-trip with titles, sentence numbers and a carried tail', () => {
  const carry = { title: 'Ed Wood (film)', next: 3, fragment: 'He said "hi"\n\nDocument 12:\nSco' };
  const text = formatGroups(formatCarry(carry), [
    {
      title: 'Scott Derrickson',
      lines: [
        { title: 'Scott Derrickson', idx: 0, text: 'Scott Derrickson (born July 16, 1966) is an American director.' },
      ],
    },
    { title: null, lines: [{ title: null, idx: -1, text: 'One of the special magic numbers for a-b is: 1234567.' }] },
    { title: 'A [bracketed] title', lines: [{ title: 'A [bracketed] title', idx: 2, text: '#not a number line' }] },
  ]);
  const parsed = parseMemory(text);
  assert.deepEqual(parsed.carry, carry);
  assert.deepEqual(parsed.lines, [
    { title: 'Scott Derrickson', idx: 0, text: 'Scott Derrickson (born July 16, 1966) is an American director.' },
    { title: null, idx: -1, text: 'One of the special magic numbers for a-b is: 1234567.' },
    { title: 'A [bracketed] title', idx: 2, text: '#not a number line' },
  ]);
});

test('the initial memory and foreign text parse without errors', () => {
  assert.deepEqual(parseMemory(EMPTY_MEMORY), { lines: [], carry: null });
  assert.deepEqual(parseMemory(''), { lines: [], carry: null });
  const foreign = parseMemory('The film was directed by Tim Burton.\n>> {not json\n#x odd');
  assert.equal(foreign.carry, null);
  assert.deepEqual(
    foreign.lines.map((l) => l.text),
    ['The film was directed by Tim Burton.', '#x odd'],
  );
});

test('word keys meet across inflections', () => {
  assert.equal(keyOf('directed'), keyOf('director'));
  assert.equal(keyOf('owns'), keyOf('owned'));
  assert.equal(keyOf('starring'), keyOf('stars'));
  assert.equal(keyOf('Nations'), keyOf('nationality'));
  assert.notEqual(keyOf('born'), keyOf('band'));
});
