// The README's checked claims and measurements, found by HTML comments (invisible on GitHub):
//   <!-- checked: ID -->            on its own line just above a fenced block: the block is command output;
//   <!-- checked: ID -->TEXT<!-- /checked -->     around inline text (it may wrap over lines): numbers or a message;
//   <!-- measured: ID -->TEXT<!-- /measured -->   a timing that cannot be checked exactly; ID names how to re-measure.
// Pure: text in, markers and problems out (scripts/readme/check.ts compares them with the commands' output).

export type MarkerKind = 'checked' | 'measured';

export interface Marker {
  kind: MarkerKind;
  id: string;
  /** The document it sits in (as given to findMarkers), and the 1-based line of its opening comment. */
  file: string;
  line: number;
  /** A fenced block under the comment (its lines), or inline text (lines joined by one space). */
  block: boolean;
  text: string;
}

export interface MarkerScan {
  markers: Marker[];
  /** Malformed markers: one message each, naming file and line. */
  problems: string[];
}

const OPEN = /<!--\s*(checked|measured):\s*([a-z0-9][a-z0-9.-]*)\s*(?:[^>]*?)-->/g;
const FENCE = /^\s*(```+|~~~+)/;

export function findMarkers(file: string, markdown: string): MarkerScan {
  const lines = markdown.split('\n');
  const markers: Marker[] = [];
  const problems: string[] = [];
  // Offsets of line starts, to turn a match index into a line number.
  const starts: number[] = [0];
  for (let i = 0; i < markdown.length; i++) if (markdown[i] === '\n') starts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo; // 0-based
  };

  for (const m of markdown.matchAll(OPEN)) {
    const kind = m[1] as MarkerKind;
    const id = m[2];
    const at = lineOf(m.index!);
    const where = `${file}:${at + 1}`;
    const standalone = lines[at].trim() === m[0];
    const close = `<!-- /${kind} -->`;
    const after = m.index! + m[0].length;
    const closeAt = markdown.indexOf(close, after);
    const nextOpen = markdown.slice(after).search(/<!--\s*(checked|measured):/);
    const closesBeforeNext = closeAt >= 0 && (nextOpen < 0 || closeAt < after + nextOpen);
    if (standalone && !closesBeforeNext) {
      if (kind !== 'checked') {
        problems.push(`${where}: a "measured" marker wraps inline text: ${close} is missing`);
        continue;
      }
      const fence = FENCE.exec(lines[at + 1] ?? '');
      if (!fence) {
        problems.push(`${where}: "checked: ${id}" on its own line must stand just above a fenced block`);
        continue;
      }
      const body: string[] = [];
      let end = at + 2;
      while (end < lines.length && !lines[end].trim().startsWith(fence[1])) body.push(lines[end++]);
      if (end >= lines.length) {
        problems.push(`${where}: the block under "checked: ${id}" is not closed`);
        continue;
      }
      markers.push({ kind, id, file, line: at + 1, block: true, text: body.join('\n') });
      continue;
    }
    if (!closesBeforeNext) {
      problems.push(`${where}: "${kind}: ${id}" has no ${close} before the next marker`);
      continue;
    }
    // A line that starts with `<!--` begins an HTML block in Markdown: the paragraph would end there.
    const closeLine = lineOf(closeAt);
    if (lines[at].trimStart().startsWith(m[0]) || lines[closeLine].trimStart().startsWith(close)) {
      problems.push(`${where}: an inline "${kind}: ${id}" marker or its ${close} starts a line; move it after a word`);
      continue;
    }
    const text = markdown.slice(after, closeAt).replace(/\s*\n\s*/g, ' ');
    markers.push({ kind, id, file, line: at + 1, block: false, text });
  }
  return { markers, problems };
}
