// deploy/: the Kubernetes and Slurm examples stay runnable. Every `bench ...` command line in them is parsed with the
// CLI's own parser (so a renamed or removed flag fails here), the YAML is checked by a small structural parser (no
// YAML library is installed: the examples keep to block mappings, block sequences, plain or quoted scalars and `|`
// block scalars, and the parser refuses anything else), and the pieces are checked to fit together.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCli } from '../../cli/parse.js';
import type { Command } from '../../harness/config/commands.js';

const DEPLOY = join(process.cwd(), 'deploy');
const read = (...p: string[]) => readFileSync(join(DEPLOY, ...p), 'utf8');

// ---- a YAML subset ------------------------------------------------------------------------------------------------

type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  no: number;
  indent: number;
  text: string;
  raw: string;
}

/** Parses `---`-separated documents of block mappings, block sequences, scalars and `|` block scalars. */
export function parseYamlSubset(source: string, file = 'yaml'): Yaml[] {
  if (source.includes('\t')) throw new Error(`${file}: tabs are not allowed in YAML indentation`);
  const docs: Line[][] = [[]];
  source.split('\n').forEach((raw, i) => {
    if (/^---\s*$/.test(raw)) docs.push([]);
    else docs[docs.length - 1].push({ no: i + 1, indent: raw.length - raw.trimStart().length, text: raw.trim(), raw });
  });
  return docs.filter((d) => d.some((l) => !skippable(l))).map((lines) => new SubsetParser(lines, file).document());
}

const skippable = (l: Line) => l.text === '' || l.text.startsWith('#');

class SubsetParser {
  private i = 0;
  constructor(
    private readonly lines: Line[],
    private readonly file: string,
  ) {}

  private fail(l: Line | undefined, what: string): never {
    throw new Error(`${this.file}:${l?.no ?? 'end'}: ${what}`);
  }

  private peek(): Line | undefined {
    while (this.i < this.lines.length && skippable(this.lines[this.i])) this.i++;
    return this.lines[this.i];
  }

  document(): Yaml {
    const first = this.peek()!;
    const value = this.block(first.indent);
    const rest = this.peek();
    if (rest) this.fail(rest, `unexpected indentation (${rest.indent})`);
    return value;
  }

  private block(indent: number): Yaml {
    const l = this.peek()!;
    return l.text === '-' || l.text.startsWith('- ') ? this.sequence(indent) : this.mapping(indent);
  }

  private mapping(indent: number): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    for (let l = this.peek(); l && l.indent === indent && !l.text.startsWith('- '); l = this.peek()) {
      const m = /^([A-Za-z0-9_.\/-]+):(?:\s+(.*))?$/.exec(l.text);
      if (!m) this.fail(l, `expected 'key: value', got '${l.text}'`);
      if (m[1] in out) this.fail(l, `duplicate key ${m[1]}`);
      this.i++;
      const rest = m[2] === undefined ? '' : stripComment(m[2]);
      if (rest === '|' || rest === '|-') out[m[1]] = this.literal(indent, rest === '|');
      else if (rest !== '') out[m[1]] = scalar(rest, () => this.fail(l, `unsupported scalar '${rest}'`));
      else {
        const next = this.peek();
        if (!next || next.indent <= indent) this.fail(l, `key ${m[1]} has no value`);
        out[m[1]] = this.block(next.indent);
      }
    }
    return out;
  }

  private sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    for (
      let l = this.peek();
      l && l.indent === indent && (l.text === '-' || l.text.startsWith('- '));
      l = this.peek()
    ) {
      const after = l.text.slice(2);
      if (after === '|' || after === '|-') {
        this.i++;
        out.push(this.literal(indent, after === '|'));
      } else if (/^[A-Za-z0-9_.\/-]+:(\s|$)/.test(after)) {
        // "- key: value" opens a mapping indented two past the dash
        this.lines[this.i] = { ...l, indent: indent + 2, text: after };
        out.push(this.mapping(indent + 2));
      } else {
        this.i++;
        out.push(scalar(stripComment(after), () => this.fail(l, `unsupported scalar '${after}'`)));
      }
    }
    return out;
  }

  /** `|` block scalar: the following lines indented deeper than the key, blank lines kept, '#' is text. */
  private literal(indent: number, keepLastNewline: boolean): string {
    const body: Line[] = [];
    while (this.i < this.lines.length && (this.lines[this.i].text === '' || this.lines[this.i].indent > indent))
      body.push(this.lines[this.i++]);
    while (body.length > 0 && body[body.length - 1].text === '') body.pop();
    if (body.length === 0) this.fail(this.lines[this.i - 1], 'empty block scalar');
    const base = body[0].indent;
    return body.map((l) => l.raw.slice(base)).join('\n') + (keepLastNewline ? '\n' : '');
  }
}

function stripComment(s: string): string {
  if (s.startsWith('"') || s.startsWith("'")) return s;
  const at = s.search(/\s#/);
  return (at >= 0 ? s.slice(0, at) : s).trim();
}

function scalar(s: string, fail: () => never): string {
  if (/^"([^"\\]|\\.)*"$/.test(s)) return JSON.parse(s) as string;
  if (/^'[^']*'$/.test(s)) return s.slice(1, -1);
  if (/^[[{&*!|>%@`]/.test(s) || /:\s/.test(s) || s.includes('"')) fail();
  return s;
}

// ---- shell command lines --------------------------------------------------------------------------------------------

/** `bench ...` command lines of a shell script (continuations joined, comments skipped), as argv after `bench`,
 *  with ${VAR:-default} → default and $VAR / ${VAR} → the script's own assignments (NAME=value lines) or vars[VAR]. */
function benchCommands(script: string, given: Record<string, string>): string[][] {
  const vars = { ...given };
  const expand = (text: string, line: string) =>
    text
      .replace(/\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}/g, (_, n: string, d: string) => vars[n] ?? d)
      .replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, n: string) => {
        if (!(n in vars))
          throw new Error(`command uses $${n}, which neither the script nor the test defines: ${line.trim()}`);
        return vars[n];
      });
  const out: string[][] = [];
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    if (line.trim().startsWith('#')) continue;
    const assign = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (assign) {
      vars[assign[1]] = shellWords(expand(assign[2], line)).join(' ');
      continue;
    }
    const m = /(?:^|[\s;&|]|exec\s)(?:npx\s+)?bench\s+(.*)$/.exec(line);
    if (m) out.push(shellWords(expand(m[1], line)));
  }
  return out;
}

function shellWords(s: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (quote) throw new Error(`unterminated quote in: ${s}`);
  if (word !== undefined) words.push(word);
  return words;
}

const parse = (argv: string[], env: Record<string, string>): Command => {
  try {
    return parseCli(argv, env);
  } catch (e) {
    throw new Error(`bench ${argv.join(' ')}: ${(e as Error).message}`);
  }
};

// ---- the checks ---------------------------------------------------------------------------------------------------

type Obj = { [key: string]: Yaml };
const obj = (v: Yaml | undefined, what: string): Obj => {
  assert.ok(v !== undefined && typeof v === 'object' && !Array.isArray(v), `${what} is not a mapping`);
  return v as Obj;
};
const list = (v: Yaml | undefined, what: string): Yaml[] => {
  assert.ok(Array.isArray(v), `${what} is not a sequence`);
  return v;
};
const str = (v: Yaml | undefined, what: string): string => {
  assert.equal(typeof v, 'string', `${what} is not a scalar`);
  return v as string;
};
const at = (v: Yaml, path: string): Yaml => path.split('.').reduce<Yaml>((o, k) => obj(o, path)[k], v);

function manifests(): { file: string; doc: Obj }[] {
  const out: { file: string; doc: Obj }[] = [];
  for (const file of readdirSync(join(DEPLOY, 'kubernetes'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const doc of parseYamlSubset(read('kubernetes', file), file)) {
      const d = obj(doc, file);
      for (const k of ['apiVersion', 'kind']) str(d[k], `${file} ${k}`);
      str(obj(d.metadata, `${file} metadata`).name, `${file} metadata.name`);
      out.push({ file, doc: d });
    }
  }
  return out;
}

const byKind = (docs: { doc: Obj }[], kind: string) => docs.map((d) => d.doc).filter((d) => d.kind === kind);
const nameOf = (d: Obj) => str(at(d, 'metadata.name'), 'name');

test('the YAML subset parser reads what the examples use and refuses the rest', () => {
  const [doc] = parseYamlSubset(
    'a: 1 # note\nb:\n  - x\n  - k: "v"\n    n: two\nc: |\n  line # kept\n\n  more\nd: \'q\'\n',
  );
  assert.deepEqual(doc, { a: '1', b: ['x', { k: 'v', n: 'two' }], c: 'line # kept\n\nmore\n', d: 'q' });
  for (const bad of ['a: [1, 2]', 'a: {b: 1}', 'a: &x 1', 'a:\n\tb: 1', 'a: 1\na: 2', 'a:\n  b: 1\n c: 2', 'a: b: c']) {
    assert.throws(() => parseYamlSubset(bad), Error, bad);
  }
});

test('Kubernetes: vLLM Deployments behind Services, an Indexed Job of shards on a shared volume, a merge Job', () => {
  const docs = manifests();
  const pvcs = byKind(docs, 'PersistentVolumeClaim');
  assert.equal(pvcs.length, 1);
  assert.deepEqual(
    at(pvcs[0], 'spec.accessModes'),
    ['ReadWriteMany'],
    'the shards of several nodes write to one volume',
  );
  const services = new Map(byKind(docs, 'Service').map((s) => [nameOf(s), s]));
  const deployments = byKind(docs, 'Deployment');
  assert.ok(deployments.length >= 2, 'several endpoints');
  for (const d of deployments) {
    const labels = at(d, 'spec.template.metadata.labels');
    assert.deepEqual(at(d, 'spec.selector.matchLabels'), labels, `${nameOf(d)}: selector matches the pod labels`);
    const svc = services.get(nameOf(d));
    assert.ok(svc, `a Service for ${nameOf(d)}`);
    assert.deepEqual(at(svc, 'spec.selector'), labels, `Service ${nameOf(d)} selects its pods`);
    const container = obj(list(at(d, 'spec.template.spec.containers'), 'containers')[0], 'container');
    const port = str(obj(list(container.ports, 'ports')[0], 'port').containerPort, 'containerPort');
    assert.equal(str(obj(list(at(svc, 'spec.ports'), 'ports')[0], 'port').targetPort, 'targetPort'), port);
  }
  const jobs = new Map(byKind(docs, 'Job').map((j) => [nameOf(j), j]));
  const shards = jobs.get('memagent-shards')!;
  assert.equal(at(shards, 'spec.completionMode'), 'Indexed');
  const completions = Number(str(at(shards, 'spec.completions'), 'completions'));
  assert.ok(Number(str(at(shards, 'spec.parallelism'), 'parallelism')) <= completions);
  assert.equal(at(shards, 'spec.template.spec.restartPolicy'), 'Never');
  const pod = obj(at(shards, 'spec.template.spec'), 'pod');
  const bench = obj(list(pod.containers, 'containers')[0], 'bench container');
  const env = Object.fromEntries(
    list(bench.env, 'env').map((e) => [str(obj(e, 'env').name, 'name'), str(obj(e, 'env').value, 'value')]),
  );
  assert.equal(Number(env.BENCH_SHARD_COUNT), completions, "BENCH_SHARD_COUNT must equal the Job's completions");
  for (const job of jobs.values()) {
    const spec = obj(at(job, 'spec.template.spec'), 'pod');
    const claim = obj(list(spec.volumes, 'volumes')[0], 'volume');
    assert.equal(
      at(claim, 'persistentVolumeClaim.claimName'),
      nameOf(pvcs[0]),
      `${nameOf(job)} mounts the shared volume`,
    );
  }

  // Every bench command: parsed by the CLI; the shards use --shard auto and every endpoint; the merge takes them all.
  const vars = { ...env, JOB_COMPLETION_INDEX: '0' };
  const commands = docs.flatMap(({ doc }) => {
    const spec = doc.kind === 'Job' ? obj(at(doc, 'spec.template.spec'), 'pod') : undefined;
    return (spec ? list(spec.containers, 'containers') : []).flatMap((c) =>
      list(obj(c, 'container').command, 'command').flatMap((part) => benchCommands(str(part, 'command'), vars)),
    );
  });
  const runs = commands
    .map((argv) => parse(argv, vars))
    .filter((c): c is Extract<Command, { command: 'run' }> => c.command === 'run');
  assert.equal(runs.length, 1);
  const run = runs[0].config;
  assert.deepEqual(run.shard, { index: 0, count: completions });
  assert.ok(Array.isArray(run.model) && run.model.length === deployments.length, 'each shard uses every endpoint');
  for (const url of run.model as string[]) {
    const u = new URL(url);
    assert.ok(services.has(u.hostname), `${url} is a Service of vllm.yaml`);
  }
  assert.match(run.out!, /\/shard-0$/);
  const merges = commands.filter((argv) => argv[0] === 'merge').map((argv) => parse(argv, vars));
  assert.equal(merges.length, 1);
  const merge = merges[0] as Extract<Command, { command: 'merge' }>;
  assert.deepEqual(
    merge.shardDirs,
    Array.from({ length: completions }, (_, i) => run.out!.replace(/shard-0$/, `shard-${i}`)),
  );
  assert.ok(commands.some((argv) => argv[0] === 'report'));
});

test('Slurm: the array size matches the shard count, and every bench command parses', () => {
  const shards = read('slurm', 'shards.sbatch');
  const array = /^#SBATCH --array=(\d+)-(\d+)\s*$/m.exec(shards);
  assert.ok(array, 'shards.sbatch declares a range array');
  const count = Number(array[2]) - Number(array[1]) + 1;
  const vars = {
    SLURM_ARRAY_TASK_ID: array[1],
    SLURM_ARRAY_TASK_MIN: array[1],
    SLURM_ARRAY_TASK_COUNT: String(count),
    OUT: '/shared/runs/x/shard-0',
  };
  const runs = benchCommands(shards, vars).map((argv) => parse(argv, vars));
  assert.equal(runs.length, 1);
  assert.ok(runs[0].command === 'run');
  assert.deepEqual(runs[0].config.shard, { index: 0, count });
  // a resubmitted single task keeps its shard: --array=3 gives MIN 3, COUNT 1
  const retry = { ...vars, SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '3', SLURM_ARRAY_TASK_COUNT: '1' };
  const again = parse(benchCommands(shards, retry)[0], retry);
  assert.ok(again.command === 'run');
  assert.deepEqual(again.config.shard, { index: 3, count });
  assert.ok(Array.isArray(runs[0].config.model) && runs[0].config.model.length >= 2, 'several endpoints');
  const merge = benchCommands(read('slurm', 'merge.sbatch'), {}).map((argv) => parse(argv, {}));
  assert.deepEqual(
    merge.map((c) => c.command),
    ['merge', 'report'],
  );
  const runsDir = /^RUNS=\$\{RUNS:-([^}]+)\}$/m;
  assert.equal(
    runsDir.exec(read('slurm', 'merge.sbatch'))?.[1],
    runsDir.exec(shards)?.[1],
    'the merge reads where the shards write',
  );
  assert.match(read('slurm', 'submit.sh'), /sbatch --dependency="afterok:\$array" merge\.sbatch/);
});

test('the bench lines quoted in deploy/README.md parse too', () => {
  const quoted = [...read('README.md').matchAll(/`npx (bench [^`]+)`/g)].map((m) => shellWords(m[1]).slice(1));
  assert.ok(quoted.length > 0);
  for (const argv of quoted) parse(argv, {});
});
