// Secrets out of what the harness stores or prints. A server may quote the API key (or the whole Authorization header)
// back in an error body; that text becomes error strings in samples.jsonl, calls.jsonl and stderr lines. Every such
// string passes through redact() where it is built: the secrets this process was given (addSecret, called where the key
// is read) and any Authorization / Bearer value are replaced with REDACTED.

export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: replacing every "ab" in a message would garble it. */
const MIN_SECRET_LENGTH = 4;

const secrets = new Set<string>();

/** Registers a value (the API key, a header value) to be redacted from everything stored or printed from now on. */
export function addSecret(value: string | undefined | null): void {
  if (typeof value !== 'string') return;
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH) return;
  secrets.add(v);
  // The same value as it appears inside JSON text and in a URL.
  const json = JSON.stringify(v).slice(1, -1);
  if (json !== v) secrets.add(json);
  const url = encodeURIComponent(v);
  if (url !== v) secrets.add(url);
}

/** Forgets every registered secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
}

// `Authorization: Bearer x`, `"authorization":"Basic x"`, `authorization=x`: the value after the name, scheme kept.
const AUTH_HEADER =
  /(authorization\\?["']?\s*[:=]\s*\\?["']?\s*)(?:(bearer|basic|token|digest)\s+)?([^\s"'\\,;})\]]+)/gi;
// A bearer token quoted without its header name (8+ token characters: not "the bearer of").
const BEARER = /\b(bearer)\s+(?!\[redacted\])(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi;

/** The text with every registered secret replaced by REDACTED: for what a model wrote (answers, memory), where
 *  header-like patterns would be ordinary words. */
export function redactSecrets(text: string): string {
  if (secrets.size === 0) return text;
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  return out;
}

/** The text with every registered secret and every Authorization / Bearer value replaced by REDACTED: for error
 *  text (server bodies quoted in messages) and every stderr line. */
export function redact(text: string): string {
  let out = redactSecrets(text);
  out = out.replace(AUTH_HEADER, (m, head: string, scheme: string | undefined, value: string) =>
    value.startsWith('[redacted') ? m : scheme ? `${head}${scheme} ${REDACTED}` : `${head}${REDACTED}`,
  );
  out = out.replace(BEARER, (_m, word: string) => `${word} ${REDACTED}`);
  return out;
}

/** An error as one redacted string: what records' `error` fields and stderr lines hold. */
export function redactedMessage(err: unknown): string {
  return redact(err instanceof Error ? err.message : String(err));
}

/** A copy of plain JSON data with every registered secret taken out of its strings (a method's extras). */
export function redactDeep<T>(value: T): T {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
