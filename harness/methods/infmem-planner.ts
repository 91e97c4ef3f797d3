// InfMem's planner output handling (infmem.py _parse_function_calls_from_text, the retrieval history): a stop vote
// is the case-sensitive substring STOP anywhere in the raw output (thinking included); otherwise Qwen-Agent's
// ✿FUNCTION✿/✿ARGS✿ calls are parsed, arguments that open with { cut after the last }.

const CALL = /✿FUNCTION✿:\s*([^\n]+)\s*✿ARGS✿:\s*([^✿]+?)(?=✿RESULT✿|✿RETURN✿|✿FUNCTION✿|$)/gs;

export interface PlannerCall {
  name: string;
  args: string;
}

export function parsePlannerOutput(raw: string): { stop: boolean; calls: PlannerCall[] } {
  if (raw.includes('STOP')) return { stop: true, calls: [] };
  const calls: PlannerCall[] = [];
  for (const m of raw.matchAll(CALL)) {
    let args = m[2].trim();
    if (args.startsWith('{')) {
      const k = args.lastIndexOf('}');
      if (k > 0) args = args.slice(0, k + 1);
    }
    if (args.startsWith('```')) {
      const k = args.lastIndexOf('\n```');
      if (k > 0) args = args.slice(0, k + 4);
    }
    calls.push({ name: m[1].trim(), args });
  }
  return { stop: false, calls };
}

/** One retrievesearch call's arguments as upstream reads them: json.loads, `query` / `top_k` with defaults, both
 *  defaults when the arguments do not parse as a JSON object. Values are kept raw (the history shows them so). */
export function readSearchArgs(args: string, question: string, defaultTopK: number): { query: unknown; topK: unknown } {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    const o = parsed as Record<string, unknown>;
    return {
      query: Object.hasOwn(o, 'query') ? o.query : question,
      topK: Object.hasOwn(o, 'top_k') ? o.top_k : defaultTopK,
    };
  } catch {
    return { query: question, topK: defaultTopK };
  }
}

/** Python's str() of a JSON value (f-string {x}); floats that JSON wrote as 5.0 print as 5 here. */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

/** Python's repr() of a JSON value ({x!r}): strings quoted as Python quotes them. */
export function pyRepr(v: unknown): string {
  if (typeof v !== 'string') return pyStr(v);
  const quote = v.includes("'") && !v.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return quote + out + quote;
}

/** The planner's {retrieval_history}: the step line, then one line per recorded query. */
export function retrievalHistory(
  step: number,
  steps: number,
  history: readonly { query: unknown; topK: unknown }[],
): string {
  return (
    `Current retrieval step: ${step}  Maximum allowed retrieval steps: ${steps}\n` +
    history.map((h, i) => `Step ${i + 1}: query=${pyRepr(h.query)}, top_k=${pyStr(h.topK)}`).join('\n')
  );
}
