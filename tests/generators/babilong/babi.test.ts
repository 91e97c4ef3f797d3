// bAbI v1.2 files read as get_dataset_df reads them: one sample per question, earlier questions dropped, the question's
// trailing space kept, max_n_facts counting facts and question; broken lines refused with their line number.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseBabi } from '../../../generators/babilong/babi.js';
import { UserError } from '../../../harness/errors.js';

const STORY = [
  '1 Mary moved to the bathroom.',
  '2 John went to the hallway.',
  '3 Where is Mary? \tbathroom\t1',
  '4 Daniel went back to the hallway.',
  '5 Sandra moved to the garden.',
  '6 Where is Daniel? \thallway\t4',
  '1 Sandra travelled to the office.',
  '2 Where is Sandra? \toffice\t1',
].join('\n');

test('each question becomes a sample with the facts before it, earlier questions left out', () => {
  const s = parseBabi(STORY, 'qa1.txt');
  assert.equal(s.length, 3);
  assert.deepEqual(s[0], {
    facts: ['Mary moved to the bathroom.', 'John went to the hallway.'],
    question: 'Where is Mary? ',
    answer: 'bathroom',
    supporting: [0],
  });
  assert.deepEqual(s[1].facts, [
    'Mary moved to the bathroom.',
    'John went to the hallway.',
    'Daniel went back to the hallway.',
    'Sandra moved to the garden.',
  ]);
  assert.deepEqual(s[1].supporting, [2]);
  assert.deepEqual(s[2], { facts: ['Sandra travelled to the office.'], question: 'Where is Sandra? ', answer: 'office', supporting: [0] });
});

test("the '|' copies read like the tab-separated originals", () => {
  assert.deepEqual(parseBabi(STORY.replace(/\t/g, '|'), 'x'), parseBabi(STORY, 'x'));
});

test('maxRows drops samples whose facts and question exceed it', () => {
  const s = parseBabi(STORY, 'x', 3);
  assert.deepEqual(s.map((x) => x.answer), ['bathroom', 'office']);
});

test('a broken line is refused with its file and line number', () => {
  assert.throws(() => parseBabi('1 Mary moved.\nx Where?\tgarden\t1', 'f.txt'), (e: unknown) => e instanceof UserError && /f\.txt:2:/.test(e.message));
  assert.throws(() => parseBabi('1 Mary moved.\n2 Where?\tgarden\t7', 'f.txt'), /f\.txt:2: question line/);
  assert.throws(() => parseBabi('1 Mary moved.\n3 John went.', 'f.txt'), /f\.txt:2: story line ID 3 follows 1/);
  assert.throws(() => parseBabi('2 Mary moved.', 'f.txt'), /starts with story line ID 2/);
});
