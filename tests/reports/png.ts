// Reads the PNG signature and IHDR size, for chart tests.
import assert from 'node:assert/strict';

export function pngSize(buf: Buffer): { width: number; height: number } {
  assert.ok(buf.length > 33, 'PNG too short');
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(buf.readUInt32BE(8), 13, 'IHDR length');
  assert.equal(buf.subarray(12, 16).toString('latin1'), 'IHDR', 'first chunk is IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/**
 * A chart PNG at print size: `size.width` pt (3.25 or 6.75 in) × ppi / 72 pixels wide, and a whole number of 6 pt
 * (1/12 in) at least the size's height tall (a long legend makes a chart taller).
 */
export function assertPrintSize(buf: Buffer, size: { width: number; height: number; ppi: number }): void {
  const px = pngSize(buf);
  assert.equal(px.width, Math.round((size.width / 72) * size.ppi), 'width = inches × ppi');
  const heightPt = (px.height * 72) / size.ppi;
  assert.ok(heightPt >= size.height - 1e-6, `height ${heightPt} pt below ${size.height} pt`);
  assert.ok(Math.abs(heightPt / 6 - Math.round(heightPt / 6)) < 1e-6, `height ${heightPt} pt not a multiple of 6`);
}
