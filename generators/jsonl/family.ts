// Generic JSONL: the user's own {context, question, answers} rows (task `jsonl`, or `file:PATH`).
import type { Family } from '../../harness/registry/family.js';
import { jsonlFormat, jsonlTask } from './index.js';

export const jsonlFamily: Family = {
  name: 'jsonl',
  tasks: [jsonlTask],
  dataFormats: [jsonlFormat],
};
