// Counts in messages: "1 point", "2 points", never "1 points" or "1 group(s)".

/** `n` and the noun in the number it needs: plural(1, 'point') = "1 point", plural(2, 'entry', 'entries') = "2 entries".
 *  `format` writes the number (default: as is; e.g. (k) => k.toLocaleString('en-US') for thousands separators). */
export function plural(n: number, one: string, many = `${one}s`, format: (k: number) => string = String): string {
  return `${format(n)} ${n === 1 ? one : many}`;
}
