// A named collection that families plug into (tasks, metrics, data formats, file layouts, report facets). Lookups of
// an unknown name are one user-facing line with the closest known name.
import { UserError } from '../errors.js';
import { didYouMean } from '../suggest.js';

export class Registry<T extends { readonly name: string }> {
  private readonly byName = new Map<string, T>();

  /** `what` names an entry in messages: "task", "metric", "export format", ... */
  constructor(
    readonly what: string,
    entries: Iterable<T> = [],
  ) {
    for (const e of entries) this.register(e);
  }

  register(entry: T): void {
    if (this.byName.has(entry.name)) throw new Error(`${this.what} '${entry.name}' is registered twice`);
    this.byName.set(entry.name, entry);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  find(name: string): T | undefined {
    return this.byName.get(name);
  }

  /** The entry, or a UserError naming the closest known one; `hint` ends the line (e.g. "run `bench tasks`"). */
  get(name: string, hint?: string): T {
    const entry = this.byName.get(name);
    if (entry) return entry;
    const names = this.names();
    throw new UserError(
      `unknown ${this.what} '${name}'${didYouMean(name, names)}: ${hint ?? `known ${this.what}s: ${names.join(', ')}`}`,
    );
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): T[] {
    return [...this.byName.values()];
  }
}
