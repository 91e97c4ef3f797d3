// harness/redact.ts (issue 17 part 2): the API key and Authorization values out of every stored or printed string.
import { afterEach, test } from 'vitest';
import assert from 'node:assert/strict';
import { addSecret, clearSecrets, redact, redactDeep, redactSecrets, redactedMessage } from '../../harness/redact.js';

afterEach(() => clearSecrets());

test('a registered key is replaced wherever it appears, also JSON-escaped and URL-encoded', () => {
  addSecret('sk-a"b/c+d=1234');
  assert.equal(redact('key sk-a"b/c+d=1234 refused'), 'key [redacted] refused');
  assert.equal(redact('{"message":"key sk-a\\"b/c+d=1234"}'), '{"message":"key [redacted]"}');
  assert.equal(redact('?key=sk-a%22b%2Fc%2Bd%3D1234&x'), '?key=[redacted]&x');
  assert.equal(redactedMessage(new Error('bad sk-a"b/c+d=1234')), 'bad [redacted]');
});

test('Authorization values and bearer tokens go, whatever the key; ordinary words stay', () => {
  assert.equal(redact('sent Authorization: Bearer abc.DEF-123'), 'sent Authorization: Bearer [redacted]');
  assert.equal(redact('{"authorization":"Basic dXNlcjpwYXNz"}'), '{"authorization":"Basic [redacted]"}');
  assert.equal(redact('authorization=tok3n-value rest'), 'authorization=[redacted] rest');
  assert.equal(redact('token bearer eyJhbGciOi1J9.x'), 'token bearer [redacted]');
  assert.equal(redact('the bearer of the letter'), 'the bearer of the letter');
  assert.equal(redact('the Authorization header is missing'), 'the Authorization header is missing');
  // Once redacted, a second pass changes nothing.
  const once = redact('Authorization: Bearer sk-1234567890');
  assert.equal(redact(once), once);
});

test('model text loses only registered secrets; short values are not secrets', () => {
  addSecret('ab');
  addSecret('sk-live-0123456789');
  assert.equal(
    redactSecrets('ab: the bearer 12345678 said sk-live-0123456789'),
    'ab: the bearer 12345678 said [redacted]',
  );
  assert.deepEqual(redactDeep({ memory: ['x sk-live-0123456789'], n: 3, ok: true, none: null }), {
    memory: ['x [redacted]'],
    n: 3,
    ok: true,
    none: null,
  });
});
