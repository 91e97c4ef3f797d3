// RULER variable tracking (vt): follow `VAR X = value` / `VAR Y = VAR X` chains across sections.

const ASSIGN = /VAR ([A-Z]{2,}) = (VAR )?([A-Za-z0-9]+)/g;
const MEMORY_PREFIX = 'Variables assigned the value ';

export function parseVariables(memory: string, value: string): string[] {
  const at = memory.indexOf(`${MEMORY_PREFIX}${value}:`);
  if (at < 0) return [];
  const lineEnd = memory.indexOf('\n', at);
  const list = memory.slice(at + MEMORY_PREFIX.length + value.length + 1, lineEnd < 0 ? memory.length : lineEnd);
  return list.split(/[\s,]+/).filter((v) => /^[A-Z]{2,}$/.test(v));
}

/** Variables of the chain rooted at `value`, in the order they were found (known ones from memory first). */
export function trackVariables(known: readonly string[], text: string, value: string): string[] {
  const vars = [...known];
  const set = new Set(vars);
  ASSIGN.lastIndex = 0;
  for (let m = ASSIGN.exec(text); m !== null; m = ASSIGN.exec(text)) {
    const [, name, isVar, rhs] = m;
    if (set.has(name)) continue;
    if ((isVar === undefined && rhs === value) || (isVar !== undefined && set.has(rhs))) {
      set.add(name);
      vars.push(name);
    }
  }
  return vars;
}

export function updateVariableTracking(value: string, memory: string, section: string, maxTokens: number): string {
  const vars = trackVariables(parseVariables(memory, value), section, value);
  const line = `${MEMORY_PREFIX}${value}: ${vars.join(', ')}`;
  return line.slice(0, Math.max(0, Math.floor(maxTokens * 3)));
}
