// A benchmark family (RULER, MemAgent's RULER-HQA, LongBench, generic JSONL) is one folder under generators/ that
// exports a Family; generators/index.ts lists them. The catalog is every family's entries, one registry per kind,
// built once by the CLI and handed to the commands and the runner.
import type { TaskDefinition } from '../types.js';
import type { ReportFacet } from '../report/facet.js';
import type { TaskOption } from '../config/task-option.js';
import type { ReaderSkill } from '../reader-skill.js';
import type { ExportLayout } from '../formats/export-layout.js';
import type { GenerateLayout } from '../formats/generate-layout.js';
import { nativeGenerateLayout } from '../formats/native.js';
import { UserError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { Registry } from './registry.js';
import type { Metric } from '../scorers/metric.js';
import { QA_METRICS } from '../scorers/qa-metrics.js';
import type { ScoreSource } from '../scorers/sources/source.js';
import { withDataReader, type DataFormat } from '../data/format.js';
import { nativeDataFormat, withNativeData } from '../data/native.js';

/** A name that stands for several tasks (e.g. longbench-qa → its datasets). */
export interface TaskGroup {
  name: string;
  tasks: string[];
}

export interface Family {
  /** e.g. 'ruler', 'ruler-hqa', 'longbench', 'jsonl'. */
  name: string;
  tasks: readonly TaskDefinition[];
  groups?: readonly TaskGroup[];
  /** What `bench report` adds for its tasks: charts, summary breakdowns, paper overlays. */
  reportFacets?: readonly ReportFacet[];
  /** Its own metrics (the shared QA metrics, harness/scorers/qa-metrics.ts, are always there). */
  metrics?: readonly Metric[];
  /** Readers of its peer tool's result files for `bench score`, most specific layout first. */
  scoreSources?: readonly ScoreSource[];
  /** Layouts of its published data that --data reads (detected from a file's first row). The catalog sends a task's
   *  prepare through the reader one of them declares for it, so Catalog.tasks, not Family.tasks, read --data. */
  dataFormats?: readonly DataFormat[];
  /** Its peer tools' layouts for `bench export --format` and `bench generate --format`. */
  exportLayouts?: readonly ExportLayout[];
  generateLayouts?: readonly GenerateLayout[];
  /** Flags its tasks read (`bench run`/`bench generate --placement` ...). */
  taskOptions?: readonly TaskOption[];
  /** What the embedded reference reader knows of its prompts (harness/reader-skill.ts), consulted in order. */
  readerSkills?: readonly ReaderSkill[];
}

export class Catalog {
  readonly tasks = new Registry<TaskDefinition>('task');
  readonly groups = new Registry<TaskGroup>('task group');
  readonly families = new Registry<Family>('family');
  readonly reportFacets = new Registry<ReportFacet>('report facet');
  readonly metrics = new Registry<Metric>('metric', QA_METRICS);
  readonly scoreSources = new Registry<ScoreSource>('score format');
  readonly dataFormats = new Registry<DataFormat>('data format');
  readonly exportLayouts = new Registry<ExportLayout>('export format');
  readonly generateLayouts = new Registry<GenerateLayout>('generate format', [nativeGenerateLayout]);
  readonly taskOptions = new Registry<TaskOption>('task option');
  readonly readerSkills = new Registry<ReaderSkill>('reader skill');

  constructor(families: Iterable<Family> = []) {
    for (const f of families) this.add(f);
    // bench generate's own rows, read for every task (withNativeData); listed after the families' layouts.
    this.dataFormats.register(nativeDataFormat);
  }

  add(family: Family): void {
    this.families.register(family);
    for (const t of family.tasks)
      this.tasks.register(withNativeData(withDataReader(t, family.dataFormats ?? [], this), this));
    for (const g of family.groups ?? []) this.groups.register(g);
    for (const f of family.reportFacets ?? []) this.reportFacets.register(f);
    for (const m of family.metrics ?? []) this.metrics.register(m);
    for (const s of family.scoreSources ?? []) this.scoreSources.register(s);
    for (const f of family.dataFormats ?? []) this.dataFormats.register(f);
    for (const l of family.exportLayouts ?? []) this.exportLayouts.register(l);
    for (const l of family.generateLayouts ?? []) this.generateLayouts.register(l);
    for (const o of family.taskOptions ?? []) this.taskOptions.register(o);
    for (const s of family.readerSkills ?? []) this.readerSkills.register(s);
  }

  /** The --format names of `bench export` / `bench generate`, in the order lists and messages show them. */
  exportFormats(): string[] {
    return byRank(this.exportLayouts.all());
  }

  generateFormats(): string[] {
    return byRank(this.generateLayouts.all());
  }

  /** The task, or one line naming the closest task or group. */
  task(name: string): TaskDefinition {
    const task = this.tasks.find(name);
    if (task) return task;
    const known = [...this.tasks.names(), ...this.groups.names()];
    const examples = this.exampleTasks();
    const eg = examples.length > 0 ? ` (e.g. ${examples.join(', ')})` : '';
    throw new UserError(`unknown task '${name}'${didYouMean(name, known)}: run \`bench tasks\` to list them${eg}`);
  }

  /** The first task of each of the first `n` families: the examples messages give. */
  exampleTasks(n = 2): string[] {
    return this.families
      .all()
      .flatMap((f) => f.tasks.slice(0, 1).map((t) => t.name))
      .slice(0, n);
  }

  /** Task names with groups expanded, in order, without duplicates; an unknown name throws. */
  expandTaskNames(names: readonly string[]): string[] {
    const out: string[] = [];
    for (const n of names)
      for (const m of this.groups.find(n)?.tasks ?? [n]) if (!out.includes(m)) out.push(this.task(m).name);
    return out;
  }
}

function byRank(layouts: ReadonlyArray<{ name: string; rank: number }>): string[] {
  return [...layouts].sort((a, b) => a.rank - b.rank).map((l) => l.name);
}
