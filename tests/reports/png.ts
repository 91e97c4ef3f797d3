// Reads the PNG signature and IHDR size, for chart tests.
import assert from 'node:assert/strict';

export function pngSize(buf: Buffer): { width: number; height: number } {
  assert.ok(buf.length > 33, 'PNG too short');
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(buf.readUInt32BE(8), 13, 'IHDR length');
  assert.equal(buf.subarray(12, 16).toString('latin1'), 'IHDR', 'first chunk is IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}
