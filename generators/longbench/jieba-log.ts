// Natural logarithm of a positive integer, correctly rounded to the nearest double, for jieba's word graph. Python's
// math.log (glibc) gives these values; V8's Math.log is off by one unit in the last place for some of jieba's
// frequencies (log(3), log(48), …: 77 of the 5,089 distinct ones), which flips exact ties between equally good
// segmentations, e.g. where the odd character of a run like 呀呀呀呀呀 goes.

const FRAC_BITS = 128n;
const cache = new Map<number, number>();

/** atanh(p / q) × 2^FRAC_BITS for 0 ≤ p/q ≤ 1/3, by its odd power series. */
function atanhFixed(p: bigint, q: bigint): bigint {
  const q2 = q * q;
  const p2 = p * p;
  let power = (p << FRAC_BITS) / q;
  let sum = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k;
    power = (power * p2) / q2;
  }
  return sum;
}

const LN2_FIXED = 2n * atanhFixed(1n, 3n);

/** ln(n) for a positive integer n (n ≤ 2^53), the double nearest the exact value. */
export function lnInteger(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`lnInteger: ${n} is not a positive integer`);
  const hit = cache.get(n);
  if (hit !== undefined) return hit;
  // n = 2^e · m with 1 ≤ m < 2; ln m = 2 atanh((m − 1) / (m + 1)) = 2 atanh((n − 2^e) / (n + 2^e)).
  const big = BigInt(n);
  const e = BigInt(big.toString(2).length - 1);
  const pow = 1n << e;
  const fixed = e * LN2_FIXED + 2n * atanhFixed(big - pow, big + pow);
  // Number(bigint) rounds to nearest, ties to even; dividing by a power of two is then exact.
  const value = Number(fixed) / 2 ** Number(FRAC_BITS);
  cache.set(n, value);
  return value;
}
