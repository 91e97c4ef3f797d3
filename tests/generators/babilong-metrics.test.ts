// BABILong's compare_answers, rule by rule (babilong/metrics.py): first sentence only, labels named in the question
// never count, the target must be the single label left, qa8's multi-part targets.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { compareAnswers, preprocessOutput, TASK_LABELS } from '../../generators/babilong/metrics.js';

const rooms = TASK_LABELS.qa1;

test('the target must be the only label in the first sentence of the output', () => {
  assert.equal(compareAnswers('garden', 'The garden', 'Where is Mary?', rooms), true);
  assert.equal(
    compareAnswers('garden', 'Mary is in the garden. Before that the kitchen.', 'Where is Mary?', rooms),
    true,
  );
  assert.equal(compareAnswers('garden', 'The garden or the kitchen', 'Where is Mary?', rooms), false);
  assert.equal(compareAnswers('garden', 'kitchen', 'Where is Mary?', rooms), false);
  assert.equal(compareAnswers('garden', '', 'Where is Mary?', rooms), false);
  assert.equal(compareAnswers('garden', 'garden <context> kitchen', 'Where is Mary?', rooms), true);
});

test('labels the question names never count, and the target is matched lower-cased', () => {
  assert.equal(
    compareAnswers('garden', 'The hallway was before the garden', 'Where was Mary before the hallway?', rooms),
    true,
  );
  assert.equal(compareAnswers('Mary', 'mary', 'Who gave the apple to Fred?', TASK_LABELS.qa5), true);
  assert.equal(compareAnswers('Mary', 'Mary gave it to Fred', 'Who gave the apple?', TASK_LABELS.qa5), false);
});

test("qa8's comma-separated targets need every part and nothing else; upstream's 'Question' cut never fires", () => {
  assert.equal(compareAnswers('apple,milk', 'milk and apple', 'What is Mary carrying?', TASK_LABELS.qa8), true);
  assert.equal(compareAnswers('apple,milk', 'milk', 'What is Mary carrying?', TASK_LABELS.qa8), false);
  assert.equal(compareAnswers('apple,milk', 'milk, apple, football', 'What is Mary carrying?', TASK_LABELS.qa8), false);
  // Lower-cased before the cut, so "Question" is never found: the text after it stays.
  assert.equal(preprocessOutput('Kitchen Question: garden'), 'kitchen question: garden');
  assert.equal(compareAnswers('kitchen', 'Kitchen Question: garden', 'Where is Mary?', rooms), false);
});
