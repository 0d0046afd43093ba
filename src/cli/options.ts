import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The options after an operator CLI's command (node:util parseArgs, positionals allowed). An
 * unknown or malformed option is a usage error: `refuse` gets the parser's message and the usage.
 */
export function commandOptions<O extends Options>(
  args: string[],
  options: O,
  usage: string,
  refuse: (message: string) => never,
) {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (err) {
    return refuse(`${(err as Error).message}\n${usage}`);
  }
}
