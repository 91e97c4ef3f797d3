// BABILong's twenty tasks: bAbI's qa1 … qa20 under BABILong's names, and the file each is built from.

/** bAbI v1.2's file stem of each task (`<stem>_test.txt`), as BABILong's data/README.md lists them. */
export const BABI_FILES: Readonly<Record<string, string>> = {
  qa1: 'qa1_single-supporting-fact',
  qa2: 'qa2_two-supporting-facts',
  qa3: 'qa3_three-supporting-facts',
  qa4: 'qa4_two-arg-relations',
  qa5: 'qa5_three-arg-relations',
  qa6: 'qa6_yes-no-questions',
  qa7: 'qa7_counting',
  qa8: 'qa8_lists-sets',
  qa9: 'qa9_simple-negation',
  qa10: 'qa10_indefinite-knowledge',
  qa11: 'qa11_basic-coreference',
  qa12: 'qa12_conjunction',
  qa13: 'qa13_compound-coreference',
  qa14: 'qa14_time-reasoning',
  qa15: 'qa15_basic-deduction',
  qa16: 'qa16_basic-induction',
  qa17: 'qa17_positional-reasoning',
  qa18: 'qa18_size-reasoning',
  qa19: 'qa19_path-finding',
  qa20: 'qa20_agents-motivations',
};

export const BABILONG_TASKS = Object.keys(BABI_FILES);
/** The leaderboard's set (BABILong's README and collect_results.py average these). */
export const LEADERBOARD_TASKS = ['qa1', 'qa2', 'qa3', 'qa4', 'qa5'];

/** What each task asks, for `bench tasks`. */
export function describeTask(task: string): string {
  return BABI_FILES[task].slice(task.length + 1).replace(/-/g, ' ');
}
