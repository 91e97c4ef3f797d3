import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { promptHash } from '../../../harness/methods/call.js';
import type { ChatMessage } from '../../../harness/types.js';

/** The definition, as one string: each role, NUL, content, NUL. */
function byDefinition(messages: ChatMessage[]): string {
  const text = messages.map((m) => `${m.role}\0${m.content}\0`).join('');
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex').slice(0, 32);
}

test('promptHash is sha256 of role, NUL, content, NUL per message, lone surrogates and all', () => {
  const cases: ChatMessage[][] = [
    [{ role: 'user', content: 'What is 2 + 2?' }],
    [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Émile — 日本語 😀 tail' },
    ],
    // Lone surrogates at the edges of a content, next to the NULs.
    [
      { role: 'user', content: '\udc00starts low, ends high\ud83d' },
      { role: 'assistant', content: '\ud83d' },
    ],
    [{ role: 'user', content: '' }],
  ];
  const seen = new Set<string>();
  for (const messages of cases) {
    const h = promptHash({ messages, params: { maxTokens: 8, temperature: 0, topP: 1 } });
    assert.equal(h, byDefinition(messages));
    assert.match(h, /^[0-9a-f]{32}$/);
    seen.add(h);
  }
  assert.equal(seen.size, cases.length);
});
