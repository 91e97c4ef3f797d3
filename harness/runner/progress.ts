import cliProgress from 'cli-progress';

export interface Progress {
  addCalls(n: number): void;
  sampleDone(ok: boolean): void;
  stop(): void;
}

/** Seconds between plain progress lines when stderr is not a terminal (CI logs). */
export const DEFAULT_PROGRESS_INTERVAL_S = 30;

/** The plain-line interval in ms: BENCH_PROGRESS_INTERVAL (seconds, > 0) or the default. */
export function progressIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_PROGRESS_INTERVAL;
  const s = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Math.round((Number.isFinite(s) && s > 0 ? s : DEFAULT_PROGRESS_INTERVAL_S) * 1000);
}

/** 75 s → "1m15s", 3725 s → "1h02m05s", under a minute → "42s". */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (x: number) => String(x).padStart(2, '0');
  if (h > 0) return `${h}h${two(m)}m${two(s)}s`;
  if (m > 0) return `${m}m${two(s)}s`;
  return `${s}s`;
}

export interface ProgressState {
  samples: number;
  totalSamples: number;
  errors: number;
  calls: number;
  /** Estimated calls of the whole run (the chains of every unit to run). */
  totalCalls: number;
  elapsedMs: number;
}

const int = (n: number) => n.toLocaleString('en-US');

/**
 * One plain progress line, e.g. "progress: samples 286/1,024 · errors 3 · calls 51,234/201,998 (25%) · elapsed 1m02s · ETA 3m05s".
 * The percentage and ETA follow calls (a 3.5M MemAgent sample is ~720 of them, a 32K one 8); no ETA before the first call.
 */
export function formatProgressLine(p: ProgressState): string {
  const calls = Math.min(p.calls, p.totalCalls);
  const fraction = p.totalCalls > 0 ? calls / p.totalCalls : 0;
  const eta =
    calls > 0 && calls < p.totalCalls
      ? formatDuration((p.elapsedMs * (p.totalCalls - calls)) / calls)
      : calls > 0
        ? '0s'
        : '?';
  return (
    `progress: samples ${int(p.samples)}/${int(p.totalSamples)} · errors ${int(p.errors)} · calls ${int(p.calls)}/${int(p.totalCalls)} ` +
    `(${Math.floor(fraction * 100)}%) · elapsed ${formatDuration(p.elapsedMs)} · ETA ${eta}`
  );
}

export interface ProgressOptions {
  /** Whether stderr is a terminal (default: process.stderr.isTTY). */
  isTTY?: boolean;
  /** Plain-line interval (default: progressIntervalMs()). */
  intervalMs?: number;
  /** Where plain lines go (default: stderr). */
  write?: (line: string) => void;
  now?: () => number;
}

/**
 * Progress on stderr, counted in estimated model calls (a 3.5M MemAgent sample is ~720 of them): a bar with ETA on a
 * terminal; otherwise (CI logs) one plain line every interval, nothing when the run ends before the first. Disabled
 * (--no-progress): nothing at all.
 */
export function createProgress(
  totalCalls: number,
  totalSamples: number,
  enabled: boolean,
  options: ProgressOptions = {},
): Progress {
  let samples = 0;
  let errors = 0;
  let calls = 0;
  if (!enabled)
    return {
      addCalls() {},
      sampleDone(ok) {
        samples++;
        if (!ok) errors++;
      },
      stop() {},
    };
  if (!(options.isTTY ?? process.stderr.isTTY)) {
    const now = options.now ?? (() => performance.now());
    const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
    const intervalMs = options.intervalMs ?? progressIntervalMs();
    const started = now();
    let last = started;
    // Checked on every call and sample as well as by the timer: the embedded model run in-process (--workers 1)
    // keeps the event loop busy, so the timer alone could stay silent for the whole run.
    const tick = () => {
      const t = now();
      if (t - last < intervalMs) return;
      last = t;
      write(formatProgressLine({ samples, totalSamples, errors, calls, totalCalls, elapsedMs: t - started }));
    };
    const timer = setInterval(tick, intervalMs);
    // The timer never keeps the process alive on its own.
    timer.unref();
    return {
      addCalls(n) {
        calls += n;
        tick();
      },
      sampleDone(ok) {
        samples++;
        if (!ok) errors++;
        tick();
      },
      stop() {
        clearInterval(timer);
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format:
        ' {bar} {percentage}% | ETA {eta_formatted} | samples {samples}/{totalSamples} | errors {errors} | calls {value}/{total}',
      hideCursor: true,
      stream: process.stderr,
      etaBuffer: 200,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(1, totalCalls), 0, { samples, totalSamples, errors });
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
