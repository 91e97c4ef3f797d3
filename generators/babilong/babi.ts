// bAbI task files (Weston et al. 2015, tasks v1.2) read into BABILong's single-question samples, as
// babilong/babilong_utils.py get_dataset_df does: a story's rows up to each question, earlier questions dropped.
import { UserError } from '../../harness/errors.js';

/** One question of a bAbI story with the facts before it, in order. */
export interface BabiSample {
  facts: string[];
  /** As the file has it, trailing space included ("Where is John? "): BABILong keeps it, and so do its CSVs. */
  question: string;
  answer: string;
  /** The supporting facts, as indices into `facts`. */
  supporting: number[];
}

interface Row {
  num: number;
  text: string;
  answer?: string;
  refs?: number[];
}

const FIX = 'expected bAbI v1.2 lines "ID text" or "ID question<TAB>answer<TAB>supporting IDs"';

/** The question-line separator: the original files use tabs; some public copies replaced them with '|'. */
function separator(text: string): string | null {
  if (text.includes('\t')) return '\t';
  return /\|[^|]*\|[\d ]*$/.test(text) ? '|' : null;
}

function parseRow(line: string, lineNo: number, file: string): Row {
  const space = line.indexOf(' ');
  const num = Number(line.slice(0, space));
  if (space <= 0 || !Number.isInteger(num) || num < 1)
    throw new UserError(`${file}:${lineNo}: '${line.slice(0, 60)}' does not start with a story line ID; ${FIX}`);
  const rest = line.slice(space + 1);
  const sep = separator(rest);
  if (sep === null) return { num, text: rest };
  const parts = rest.split(sep);
  const refs = (parts[2] ?? '').split(' ').filter((s) => s !== '').map(Number);
  if (parts.length !== 3 || parts[1] === '' || refs.some((r) => !Number.isInteger(r) || r < 1 || r >= num))
    throw new UserError(`${file}:${lineNo}: question line '${line.slice(0, 80)}' is malformed; ${FIX}`);
  return { num, text: parts[0], answer: parts[1], refs };
}

/** Every question of a bAbI file as a sample; `maxRows` drops those whose facts and question exceed it (max_n_facts). */
export function parseBabi(text: string, file: string, maxRows?: number): BabiSample[] {
  const out: BabiSample[] = [];
  let story: Row[] = [];
  const lines = text.trim().split('\n');
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const row = parseRow(line, i + 1, file);
    if (row.num === 1) story = [];
    else if (story.length > 0 && row.num !== story[story.length - 1].num + 1)
      throw new UserError(`${file}:${i + 1}: story line ID ${row.num} follows ${story[story.length - 1].num}; ${FIX}`);
    else if (story.length === 0)
      throw new UserError(`${file}:${i + 1}: the file starts with story line ID ${row.num}, not 1; ${FIX}`);
    story.push(row);
    if (row.answer === undefined) return;
    const facts = story.filter((r) => r.answer === undefined);
    if (maxRows !== undefined && facts.length + 1 > maxRows) return;
    const refs = new Set(row.refs);
    out.push({
      facts: facts.map((r) => r.text),
      question: row.text,
      answer: row.answer,
      supporting: facts.flatMap((r, k) => (refs.has(r.num) ? [k] : [])),
    });
  });
  return out;
}
