// BABILong's prediction CSVs as collect_results.py sees them through `pd.read_csv` with its defaults: quoted fields
// (doubled quotes, commas and line breaks inside), blank and white-space-only lines skipped, short rows padded with
// missing values, pandas' default missing-value strings read as missing, and a header one field shorter than the
// rows (to_csv's unnamed index) taken as an index column.
import { UserError } from '../../harness/errors.js';

/** pandas' default `na_values` (pandas >= 2.0; 1.x lacked 'None'): a field equal to one of these is missing. */
export const PANDAS_NA_VALUES: ReadonlySet<string> = new Set([
  '',
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null',
]);

export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  line: number;
  fields: string[];
}

type State = 'record' | 'blank' | 'field' | 'unquoted' | 'quoted' | 'quote';

/** Splits CSV text into records as pandas' C tokenizer does (its states START_RECORD, WHITESPACE_LINE, START_FIELD,
 *  IN_FIELD, IN_QUOTED_FIELD, QUOTE_IN_QUOTED_FIELD); `file` names the file in the error for a quote left open. */
export function csvRecords(text: string, file = 'CSV'): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const out: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let state: State = 'record';
  let line = 1;
  let recordLine = 1;
  let lineStart = 0;
  const endRecord = () => {
    fields.push(field);
    out.push({ line: recordLine, fields });
    fields = [];
    field = '';
    state = 'record';
  };
  for (let i = 0; i < src.length; i++) {
    let c = src[i];
    const newline = c === '\n' || c === '\r';
    if (state === 'quoted') {
      // Line breaks inside quotes are the field's own, kept as they are.
      if (c === '"') state = 'quote';
      else field += c;
      if (c === '\n' || (c === '\r' && src[i + 1] !== '\n')) line++;
      continue;
    }
    if (newline) {
      if (c === '\r' && src[i + 1] === '\n') i++;
      c = '\n';
    }
    switch (state) {
      case 'record':
        recordLine = line;
        lineStart = i;
        if (newline) break;
        if (c === ' ' || c === '\t') {
          state = 'blank';
          break;
        }
        state = 'field';
        i--;
        continue;
      case 'blank':
        if (newline) state = 'record';
        else if (c !== ' ' && c !== '\t') {
          // Not a blank line after all: its white space is the first field's.
          i = lineStart - 1;
          state = 'field';
        }
        break;
      case 'field':
        if (newline) endRecord();
        else if (c === '"') state = 'quoted';
        else if (c === ',') fields.push('');
        else {
          field = c;
          state = 'unquoted';
        }
        break;
      case 'unquoted':
        if (newline) endRecord();
        else if (c === ',') {
          fields.push(field);
          field = '';
          state = 'field';
        } else field += c;
        break;
      case 'quote':
        if (c === '"') {
          field += '"';
          state = 'quoted';
        } else if (newline) endRecord();
        else if (c === ',') {
          fields.push(field);
          field = '';
          state = 'field';
        } else {
          field += c;
          state = 'unquoted';
        }
        break;
    }
    if (newline) line++;
  }
  if (state === 'quoted')
    throw new UserError(`${file}:${recordLine}: a quoted field is not closed before the end of the file; fix the file`);
  if (state !== 'record' && state !== 'blank') endRecord();
  return out;
}

export interface PredictionRow {
  line: number;
  target: string | null;
  /** '' where the field is missing, as collect_results' fillna('') leaves it. */
  output: string;
  question: string | null;
}

const COLUMNS = ['target', 'output', 'question'] as const;

/** The rows of one prediction CSV; throws UserError (one line) for a missing column or a malformed row. */
export function readPredictionCsv(file: string, text: string): PredictionRow[] {
  const records = csvRecords(text, file);
  if (records.length === 0)
    throw new UserError(`${file}: empty file; a BABILong prediction CSV has a header with target, output, question`);
  const header = records[0].fields;
  const missing = COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new UserError(
      `${file}: no ${missing.map((c) => `'${c}'`).join(', ')} column (its header: ${header.join(',')}); collect_results.py needs target, output and question: fix or remove the file`,
    );
  const data = records.slice(1);
  // pandas: a first data row one field longer than the header makes the first column the index.
  const shift = data.length > 0 && data[0].fields.length === header.length + 1 ? 1 : 0;
  const width = header.length + shift;
  const at = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c) + shift])) as Record<
    (typeof COLUMNS)[number],
    number
  >;
  return data.map(({ line, fields }) => {
    if (fields.length > width)
      throw new UserError(
        `${file}:${line}: ${fields.length} fields where the header has ${width}; pandas refuses such a row (fix the file)`,
      );
    const value = (k: number): string | null => {
      const v = fields[k];
      return v === undefined || PANDAS_NA_VALUES.has(v) ? null : v;
    };
    return { line, target: value(at.target), output: value(at.output) ?? '', question: value(at.question) };
  });
}
