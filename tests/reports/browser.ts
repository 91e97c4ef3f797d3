// A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: no port, no network),
// for tests that open report.html as a reader would. findChromium() is null where no browser is installed (CI has
// only Node), and those tests skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

/** The Chromium binary ($CHROMIUM, else chromium / chromium-browser / google-chrome on PATH), or null. */
export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome'].filter(
    (c): c is string => !!c,
  );
  for (const c of candidates) {
    const probe = spawnSync(c, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (probe.status === 0 && /chrom/i.test(probe.stdout)) return c;
  }
  return null;
}

interface Pending {
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

export interface PageProblems {
  /** Uncaught exceptions in the page. */
  exceptions: string[];
  /** Console and log entries at level error (a CSP violation is one). */
  errors: string[];
}

export class Page {
  readonly problems: PageProblems = { exceptions: [], errors: [] };
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly waiters: { method: string; resolve: () => void }[] = [];
  private buffer = '';
  private session = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const out = child.stdio[4] as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        this.dispatch(JSON.parse(this.buffer.slice(0, end)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(end + 1);
      }
    });
    child.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error('chromium exited'));
      this.pending.clear();
    });
  }

  /** Starts Chromium with a fresh profile and a blank page of `width`×`height` CSS px. */
  static async open(browser: string, width = 1280, height = 900): Promise<Page> {
    const profile = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
    const child = spawn(
      browser,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        '--remote-debugging-pipe',
        `--user-data-dir=${profile}`,
        `--window-size=${width},${height}`,
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
    );
    const page = new Page(child, profile);
    const { targetId } = await page.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await page.send('Target.attachToTarget', { targetId, flatten: true });
    page.session = sessionId as string;
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Log.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  private dispatch(msg: Record<string, unknown>): void {
    if (typeof msg.id === 'number') {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      const error = msg.error as { message?: string } | undefined;
      if (error) p?.reject(new Error(`CDP: ${error.message}`));
      else p?.resolve((msg.result ?? {}) as Record<string, unknown>);
      return;
    }
    const params = (msg.params ?? {}) as Record<string, any>;
    if (msg.method === 'Runtime.exceptionThrown')
      this.problems.exceptions.push(
        String(params.exceptionDetails?.exception?.description ?? params.exceptionDetails?.text),
      );
    if (msg.method === 'Log.entryAdded' && params.entry?.level === 'error')
      this.problems.errors.push(params.entry.text);
    if (msg.method === 'Runtime.consoleAPICalled' && params.type === 'error')
      this.problems.errors.push(params.args?.map((a: { value?: unknown }) => String(a.value)).join(' '));
    for (let i = this.waiters.length - 1; i >= 0; i--)
      if (this.waiters[i].method === msg.method) this.waiters.splice(i, 1)[0].resolve();
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const id = this.nextId++;
    const message: Record<string, unknown> = { id, method, params };
    if (this.session && !method.startsWith('Target.') && !method.startsWith('Browser.'))
      message.sessionId = this.session;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify(message)}\0`);
    });
  }

  /** Opens a file and waits for its load event (its scripts have run by then). */
  async goto(file: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => this.waiters.push({ method: 'Page.loadEventFired', resolve }));
    await this.send('Page.navigate', { url: pathToFileURL(file).href });
    await loaded;
  }

  /** Evaluates an expression in the page and returns its (JSON) value; a thrown error rejects. */
  async eval<T = unknown>(expression: string): Promise<T> {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails)
      throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result?.value as T;
  }

  /** A PNG of the whole page (or of `clip`, in CSS px). */
  async screenshot(clip?: { x: number; y: number; width: number; height: number }): Promise<Buffer> {
    const r = await this.send('Page.captureScreenshot', {
      format: 'png',
      captureBeyondViewport: true,
      ...(clip ? { clip: { ...clip, scale: 1 } } : {}),
    });
    return Buffer.from(r.data as string, 'base64');
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) =>
      this.child.exitCode !== null ? resolve() : this.child.once('exit', () => resolve()),
    );
    // A guard that only stops a browser that hangs on close.
    const guard = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.send('Browser.close').catch(() => {});
    await exited;
    clearTimeout(guard);
    rmSync(this.profile, { recursive: true, force: true });
  }
}
