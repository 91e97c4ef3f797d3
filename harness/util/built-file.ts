// The end of a script that builds a committed data file (a bundled fixture): write it, or with --check say whether
// the committed file is what the builder makes (exit code 1 if not).
import { readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheckBuiltFile(file: string, text: string, argv: readonly string[] = process.argv): void {
  if (argv.includes('--check')) {
    const same = readFileSync(file, 'utf8') === text;
    console.log(same ? `${file} is up to date` : `${file} differs from the builder's output`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file} (${text.length} bytes)`);
  }
}
