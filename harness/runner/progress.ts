import cliProgress from 'cli-progress';

export interface Progress {
  addCalls(n: number): void;
  sampleDone(ok: boolean): void;
  stop(): void;
}

/** A progress bar with ETA on stderr, counted in estimated model calls (a 3.5M MemAgent sample is ~720 of them). */
export function createProgress(totalCalls: number, totalSamples: number, enabled: boolean): Progress {
  let samples = 0;
  let errors = 0;
  if (!enabled || !process.stderr.isTTY) {
    return { addCalls() {}, sampleDone(ok) { samples++; if (!ok) errors++; }, stop() {} };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: ' {bar} {percentage}% | ETA {eta_formatted} | samples {samples}/{totalSamples} | errors {errors} | calls {value}/{total}',
      hideCursor: true,
      stream: process.stderr,
      etaBuffer: 200,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(1, totalCalls), 0, { samples, totalSamples, errors });
  let calls = 0;
  return {
    addCalls(n) {
      calls += n;
      bar.update(Math.min(calls, totalCalls), { samples, totalSamples, errors });
    },
    sampleDone(ok) {
      samples++;
      if (!ok) errors++;
      bar.update(Math.min(calls, totalCalls), { samples, totalSamples, errors });
    },
    stop() {
      bar.stop();
    },
  };
}
