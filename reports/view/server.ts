// `bench view`'s HTTP server: listens on 127.0.0.1 only, answers GET and HEAD alone, never writes, and serves files
// only from inside the run directories it was given (their real paths: a symlink that leads out is refused). Every
// response carries a Content-Security-Policy that allows our stylesheet and the runs' chart images, and nothing
// else: no script at all, no inline style, no frame, no form.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { VIEW_CSS } from './assets.js';
import {
  cellPage,
  chartsPage,
  comparePage,
  errorPage,
  FILTERS,
  runListPage,
  runPage,
  samplePage,
  type SampleFilter,
} from './pages.js';
import type { ViewRun } from './run-data.js';

export const VIEW_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HEADERS = {
  'Content-Security-Policy': VIEW_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

/** The only files served from a run directory, by extension. */
const SERVED_TYPES: Record<string, string> = { '.png': 'image/png', '.txt': 'text/plain; charset=utf-8' };

export interface RunningView {
  url: string;
  port: number;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The real path of `rel` under `root`, or an HttpError: 403 for anything that resolves outside it, 404 if absent. */
export function fileInside(root: string, rel: string): string {
  if (rel.includes('\0')) throw new HttpError(400, 'bad path');
  const target = resolve(root, rel);
  const inside = (p: string) => {
    const r = relative(root, p);
    return r !== '' && !r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r);
  };
  if (!inside(target)) throw new HttpError(403, 'that path is outside the run directories bench view was given');
  if (!existsSync(target)) throw new HttpError(404, 'no such file in the run directory');
  const real = realpathSync(target);
  if (!inside(real)) throw new HttpError(403, 'that path leads outside the run directories bench view was given');
  if (!statSync(real).isFile()) throw new HttpError(404, 'not a file');
  return real;
}

function intParam(v: string | null, fallback = 0): number {
  const n = v === null ? fallback : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

function runAt(runs: readonly ViewRun[], i: string): ViewRun {
  const run = /^\d+$/.test(i) ? runs[Number(i)] : undefined;
  if (!run) throw new HttpError(404, `no run ${i}`);
  return run;
}

function recordOf(run: ViewRun, id: string | null, method: string | null) {
  const r = id !== null && method !== null ? run.byKey.get(`${id}#${method}`) : undefined;
  if (!r) throw new HttpError(404, `no sample ${id ?? '?'} of method ${method ?? '?'} in ${run.name}`);
  return r;
}

/** "RUN:METHOD" of the side-by-side view. */
function sideOf(runs: readonly ViewRun[], id: string, spec: string | null) {
  const m = spec === null ? null : /^(\d+):(.+)$/.exec(spec);
  if (!m) throw new HttpError(400, 'a side is RUN:METHOD, e.g. 0:memagent');
  const run = runAt(runs, m[1]);
  return { run, r: recordOf(run, id, m[2]) };
}

type Reply = { status: number; type: string; body: string | Buffer };
const html = (body: string): Reply => ({ status: 200, type: 'text/html; charset=utf-8', body });

function route(runs: readonly ViewRun[], url: URL): Reply {
  const path = url.pathname;
  const q = url.searchParams;
  if (path === '/') return html(runListPage(runs));
  if (path === '/assets/view.css') return { status: 200, type: 'text/css; charset=utf-8', body: VIEW_CSS };
  if (path === '/favicon.ico') return { status: 204, type: 'text/plain', body: '' };
  if (path === '/compare') {
    const id = q.get('id');
    if (id === null) throw new HttpError(400, 'compare needs ?id=SAMPLE&a=RUN:METHOD&b=RUN:METHOD');
    const a = q.get('a') ?? '';
    const b = q.get('b') ?? '';
    return html(comparePage(id, [sideOf(runs, id, a), sideOf(runs, id, b)], intParam(q.get('from')), { a, b }));
  }
  const m = /^\/run\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) throw new HttpError(404, 'no such page');
  const run = runAt(runs, m[1]);
  const rest = m[2] ?? '/';
  if (rest === '/') return html(runPage(run));
  if (rest === '/charts') return html(chartsPage(run));
  if (rest === '/cell') {
    const task = q.get('task');
    const length = q.get('length');
    const method = q.get('method');
    if (task === null || length === null || method === null)
      throw new HttpError(400, 'a cell needs ?task=&length=&method=');
    const f = (q.get('filter') ?? 'all') as SampleFilter;
    const filter = FILTERS.includes(f) ? f : 'all';
    return html(cellPage(run, { task, length, method }, filter, intParam(q.get('page'))));
  }
  if (rest === '/sample') {
    const r = recordOf(run, q.get('id'), q.get('method'));
    return html(samplePage(run, r, intParam(q.get('from')), runs));
  }
  if (rest.startsWith('/file/')) {
    let rel: string;
    try {
      rel = decodeURIComponent(rest.slice('/file/'.length));
    } catch {
      throw new HttpError(400, 'bad path');
    }
    const file = fileInside(run.root, rel);
    const type = SERVED_TYPES[extname(file).toLowerCase()];
    if (!type) throw new HttpError(404, 'bench view serves only the charts (.png) and captions (.txt) of a run');
    return { status: 200, type, body: readFileSync(file) };
  }
  throw new HttpError(404, 'no such page');
}

function handle(runs: readonly ViewRun[], hosts: Set<string>, req: IncomingMessage, res: ServerResponse): void {
  const send = (reply: Reply) => {
    res.writeHead(reply.status, { ...HEADERS, 'Content-Type': reply.type });
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  };
  const fail = (status: number, message: string) =>
    send({ status, type: 'text/html; charset=utf-8', body: errorPage(status, message) });
  // A page reached under another name (DNS rebinding) is refused: only the address it printed.
  if (!hosts.has(req.headers.host ?? '')) return fail(421, 'bench view answers only at the address it printed');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return fail(405, 'bench view is read-only');
  }
  try {
    send(route(runs, new URL(req.url ?? '/', 'http://127.0.0.1')));
  } catch (err) {
    if (err instanceof HttpError) fail(err.status, err.message);
    else fail(500, 'bench view could not render this page');
  }
}

/** Starts the server on 127.0.0.1:`port` (0: any free port). */
export function startView(runs: readonly ViewRun[], port: number): Promise<RunningView> {
  const hosts = new Set<string>();
  const server: Server = createServer((req, res) => handle(runs, hosts, req, res));
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      hosts.add(`127.0.0.1:${actual}`).add(`localhost:${actual}`);
      resolveStart({
        url: `http://127.0.0.1:${actual}/`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
