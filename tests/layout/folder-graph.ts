// The imports between top-level folders, read from the source: which folder imports which, and how often.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The stack, bottom first: a folder may import only folders before it. */
export const FOLDER_ORDER = ['harness', 'datasets', 'reports', 'generators', 'reference', 'cli'] as const;

const SKIP = new Set(['node_modules', 'dist', 'runs', '.git', '.bench-cache']);
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts)$/.test(name)) out.push(path);
  }
  return out;
}

export interface FolderEdge {
  from: string;
  to: string;
  /** `file → imported path`, one per import. */
  imports: string[];
}

/** Edges between the given top-level folders of `root` (relative imports only; type-only imports count too). */
export function folderEdges(root: string, folders: readonly string[] = FOLDER_ORDER): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const top of folders) {
    let files: string[];
    try {
      files = sourceFiles(join(root, top));
    } catch {
      continue;
    }
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(root, resolve(dirname(file), m[1])).split('/')[0];
        if (target === top || !folders.includes(target)) continue;
        const key = `${top} -> ${target}`;
        const edge = edges.get(key) ?? { from: top, to: target, imports: [] };
        edge.imports.push(`${relative(root, file)} → ${m[1]}`);
        edges.set(key, edge);
      }
    }
  }
  return [...edges.values()];
}

/** Edges that go up the stack (a folder importing one above it). */
export function upwardEdges(edges: readonly FolderEdge[], order: readonly string[] = FOLDER_ORDER): FolderEdge[] {
  return edges.filter((e) => order.indexOf(e.to) > order.indexOf(e.from));
}

// `npx tsx tests/layout/folder-graph.ts`: every edge between top-level folders, and any that goes up the stack.
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
  const edges = folderEdges(root);
  for (const e of edges) console.log(`${e.from} -> ${e.to}: ${e.imports.length}`);
  const up = upwardEdges(edges);
  console.log(up.length === 0 ? 'no folder imports one above it' : `${up.length} upward edge(s)`);
  process.exitCode = up.length === 0 ? 0 : 1;
}
