// BABILong's answer check (booydar/babilong, babilong/metrics.py), reproduced rule for rule so that our accuracies
// equal collect_results.py's on the same rows. Groundwork for the babilong family (issue 34): not yet registered.

/** The answer labels of each bAbI task, as upstream lists them. */
export const TASK_LABELS: Readonly<Record<string, readonly string[]>> = {
  qa1: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa2: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa3: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa4: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa5: ['Bill', 'Fred', 'Jeff', 'Mary', 'apple', 'football', 'milk'],
  qa6: ['no', 'yes'],
  qa7: ['none', 'one', 'three', 'two'],
  qa8: ['apple', 'football', 'milk', 'nothing'],
  qa9: ['no', 'yes'],
  qa10: ['maybe', 'no', 'yes'],
  qa11: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa12: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa13: ['bathroom', 'bedroom', 'garden', 'hallway', 'kitchen', 'office'],
  qa14: ['bedroom', 'cinema', 'kitchen', 'office', 'park', 'school'],
  qa15: ['cat', 'mouse', 'sheep', 'wolf'],
  qa16: ['gray', 'green', 'white', 'yellow'],
  qa17: ['no', 'yes'],
  qa18: ['no', 'yes'],
  qa19: ['e,e', 'e,n', 'e,s', 'n,e', 'n,n', 'n,w', 's,e', 's,s', 's,w', 'w,n', 'w,s', 'w,w'],
  qa20: ['bedroom', 'bored', 'garden', 'hungry', 'kitchen', 'thirsty', 'tired'],
};

/** The part of an output upstream reads: lower-cased, its first sentence, cut where the model starts writing a new
 *  context or example. The cut at "Question" comes after lower-casing, so upstream never makes it; neither do we. */
export function preprocessOutput(output: string): string {
  let out = output.toLowerCase();
  out = out.split('.')[0];
  out = out.split('<context>')[0];
  out = out.split('<example>')[0];
  out = out.split('Question')[0];
  return out;
}

/** Correct when the target is the only label named in the output that the question does not name (labels count as
 *  substrings); a comma-separated target longer than 3 characters (qa8's "apple,milk") needs all its parts and no
 *  other label. */
export function compareAnswers(
  target: string,
  output: string,
  question: string,
  taskLabels: readonly string[],
): boolean {
  const out = preprocessOutput(output);
  const t = target.toLowerCase();
  const q = question.toLowerCase();
  const labels = [...new Set(taskLabels.map((l) => l.toLowerCase()))];
  const found = new Set(labels.filter((l) => out.includes(l) && !q.includes(l)));
  if (t.includes(',') && t.length > 3) {
    const parts = t.split(',');
    return parts.every((p) => found.has(p)) && found.size === parts.length;
  }
  return found.has(t) && found.size === 1;
}
