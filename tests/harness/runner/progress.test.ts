// Progress on stderr: plain lines when stderr is not a terminal (CI logs), nothing with --no-progress.
import { afterEach, test, vi } from 'vitest';
import assert from 'node:assert/strict';
import {
  createProgress,
  DEFAULT_PROGRESS_INTERVAL_S,
  formatDuration,
  formatProgressLine,
  progressIntervalMs,
} from '../../../harness/runner/progress.js';

afterEach(() => {
  vi.useRealTimers();
});

test('formatDuration: seconds, minutes, hours', () => {
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(42_400), '42s');
  assert.equal(formatDuration(75_000), '1m15s');
  assert.equal(formatDuration(3_725_000), '1h02m05s');
});

test('a progress line: samples, errors, calls, elapsed and an ETA from the share of calls done', () => {
  const line = formatProgressLine({
    samples: 286,
    totalSamples: 1024,
    errors: 3,
    calls: 50_000,
    totalCalls: 200_000,
    elapsedMs: 60_000,
  });
  assert.equal(line, 'progress: samples 286/1,024 · errors 3 · calls 50,000/200,000 (25%) · elapsed 1m00s · ETA 3m00s');
  assert.match(
    formatProgressLine({ samples: 0, totalSamples: 8, errors: 0, calls: 0, totalCalls: 64, elapsedMs: 500 }),
    /calls 0\/64 \(0%\) · elapsed 1s · ETA \?$/,
  );
  // More calls than estimated: capped at 100%, no negative ETA.
  assert.match(
    formatProgressLine({ samples: 7, totalSamples: 8, errors: 1, calls: 70, totalCalls: 64, elapsedMs: 9000 }),
    /errors 1 · calls 70\/64 \(100%\) · elapsed 9s · ETA 0s$/,
  );
});

test('BENCH_PROGRESS_INTERVAL sets the interval in seconds; anything else keeps the default', () => {
  assert.equal(progressIntervalMs({ BENCH_PROGRESS_INTERVAL: '0.2' }), 200);
  assert.equal(progressIntervalMs({ BENCH_PROGRESS_INTERVAL: '5' }), 5000);
  for (const bad of [undefined, '', '0', '-1', 'soon'])
    assert.equal(progressIntervalMs({ BENCH_PROGRESS_INTERVAL: bad }), DEFAULT_PROGRESS_INTERVAL_S * 1000, String(bad));
});

test('not a terminal: one line per interval from the timer, none before the first interval, none after stop', () => {
  vi.useFakeTimers();
  let t = 0;
  const lines: string[] = [];
  const p = createProgress(100, 10, true, {
    isTTY: false,
    intervalMs: 1000,
    write: (l) => lines.push(l),
    now: () => t,
  });
  p.addCalls(10);
  t = 500;
  vi.advanceTimersByTime(500);
  assert.deepEqual(lines, [], 'nothing before the first interval');
  t = 1000;
  vi.advanceTimersByTime(500);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^progress: samples 0\/10 · errors 0 · calls 10\/100 \(10%\) · elapsed 1s · ETA 9s$/);
  p.sampleDone(true);
  p.sampleDone(false);
  t = 2000;
  vi.advanceTimersByTime(1000);
  assert.equal(lines.length, 2);
  assert.match(lines[1], /samples 2\/10 · errors 1 · /);
  p.stop();
  t = 10_000;
  vi.advanceTimersByTime(10_000);
  assert.equal(lines.length, 2, 'stopped');
});

test('not a terminal: a busy event loop still gets its lines, from the calls themselves', () => {
  // The embedded model in-process can keep timers from firing: the interval is also checked on every event.
  let t = 0;
  const lines: string[] = [];
  const p = createProgress(100, 10, true, {
    isTTY: false,
    intervalMs: 1000,
    write: (l) => lines.push(l),
    now: () => t,
  });
  for (let i = 1; i <= 50; i++) {
    t = i * 100;
    p.addCalls(1);
  }
  p.stop();
  // 5 s of calls at one line per second.
  assert.equal(lines.length, 5, lines.join('\n'));
  assert.match(lines[4], /calls 50\/100 \(50%\) · elapsed 5s · ETA 5s$/);
});

test('--no-progress: nothing, whatever stderr is', () => {
  vi.useFakeTimers();
  const lines: string[] = [];
  for (const isTTY of [false, true]) {
    const p = createProgress(100, 10, false, {
      isTTY,
      intervalMs: 10,
      write: (l) => lines.push(l),
      now: () => Date.now(),
    });
    p.addCalls(50);
    p.sampleDone(true);
    vi.advanceTimersByTime(1000);
    p.stop();
  }
  assert.deepEqual(lines, []);
});
