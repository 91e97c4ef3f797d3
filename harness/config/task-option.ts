// A flag that a family's tasks read from TaskEnv.options (e.g. ruler-hqa's --placement), declared on its Family so
// cli/parse.ts accepts it and cli/help.ts documents it without naming the family. The family checks the value
// itself (its own one-line message), when its task prepares.
export type TaskOptionCommand = 'run' | 'generate';

export interface TaskOption {
  /** The flag without '--', and its key in TaskEnv.options. */
  readonly name: string;
  /** The value's placeholder in help: 'P', 'FILE', 'exact|ruler'. */
  readonly arg: string;
  /** Help text after the flag column, default included; each further line is indented under the first. */
  readonly help: readonly string[];
  /** The values the family accepts, when it is a fixed list. */
  readonly choices?: readonly string[];
  /** The tasks that read it. */
  readonly tasks: readonly string[];
  /** The commands that take it. */
  readonly commands: readonly TaskOptionCommand[];
  /** Another option this one needs, and the one line that says so when it is missing. */
  readonly requires?: { readonly option: string; readonly message: string };
}
