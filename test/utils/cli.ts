import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * Runs a CLI entry point as `npm run` would (swc-node), with the given environment and optional
 * stdin; collects its output. `untilLine`: stop it (SIGTERM) once stdout matches.
 */
export function runCli(
  entry: string,
  args: string[],
  env: Record<string, string>,
  opts: { untilLine?: RegExp; stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', entry, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', ...env },
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout!.on('data', (c) => {
      stdout += c;
      if (opts.untilLine && opts.untilLine.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr!.on('data', (c) => {
      stderr += c;
    });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
