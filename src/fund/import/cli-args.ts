/** Parses `--name value` and `--flag` arguments; unknown names are refused. */
export function parseCliArgs(
  argv: string[],
  names: string[],
  flags: string[] = [],
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const name = arg.slice(2);
    if (flags.includes(name)) {
      out[name] = 'true';
      continue;
    }
    if (!names.includes(name)) throw new Error(`unknown option --${name}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
    out[name] = value;
  }
  return out;
}

/** A whole-number option (undefined when absent); anything else is refused naming the option. */
export function wholeNumberArg(args: Record<string, string | undefined>, name: string): number | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`--${name} must be a whole number, got "${v}"`);
  return Number(v);
}
