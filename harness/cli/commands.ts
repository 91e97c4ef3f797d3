import { UserError } from '../errors.js';
import type { Command } from './parse.js';

/** Commands other than run/tasks/help, each loaded lazily. */
export async function runOtherCommand(cmd: Command, out: (l: string) => void, _err: (l: string) => void): Promise<number> {
  switch (cmd.command) {
    default:
      throw new UserError(`bench ${cmd.command} is not available in this build yet`);
  }
}
