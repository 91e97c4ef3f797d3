// RULER suites (task groups): `ruler`, MemAgent's OOD grid (taskutils/memory_eval/run.py run_ood_tasks: the 8 NIAH
// tasks, vt, fwe and qa_1; qa_1 only up to 256K), and `ruler-all`, RULER's 13 tasks (cwe and qa_2 added).
import type { TaskGroup } from '../../harness/registry/family.js';
import { NIAH_SPECS } from './spec.js';

const NIAH = NIAH_SPECS.map((s) => s.name);

export const MEMAGENT_OOD_TASKS: readonly string[] = [...NIAH, 'vt', 'fwe', 'qa_1'];
export const RULER_ALL_TASKS: readonly string[] = [...NIAH, 'vt', 'cwe', 'fwe', 'qa_1', 'qa_2'];

export const RULER_SUITES: readonly TaskGroup[] = [
  { name: 'ruler', tasks: [...MEMAGENT_OOD_TASKS] },
  { name: 'ruler-all', tasks: [...RULER_ALL_TASKS] },
];
