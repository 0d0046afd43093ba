import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SDK = join(__dirname, '../../sdk');

/** The SDKs install into fresh projects without a network (issue 14 item 5). */
describe('SDKs a user can install', () => {
  it('TypeScript: npm pack (prepare builds) installs offline into a fresh project; CommonJS, ESM and types', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-sdk-ts-'));
    await run('npm', ['pack', '--pack-destination', dir], { cwd: join(SDK, 'typescript'), timeout: 120_000 });
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    const app = join(dir, 'app');
    await run('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), '{ "name": "fresh", "version": "1.0.0", "private": true }');
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, tgz)], { cwd: app, timeout: 120_000 });
    const cjs = await run('node', ['-e', "const m = require('@fundgate/sdk'); console.log(typeof m.FundgateClient, typeof m.FundgateError)"], { cwd: app });
    expect(cjs.stdout.trim()).toBe('function function');
    const esm = await run('node', ['--input-type=module', '-e', "import { FundgateClient } from '@fundgate/sdk'; console.log(typeof FundgateClient)"], { cwd: app });
    expect(esm.stdout.trim()).toBe('function');
    expect(existsSync(join(app, 'node_modules/@fundgate/sdk/dist/types/index.d.ts'))).toBe(true);
  }, 240_000);

  it('TypeScript: the README installs from the tarball only; the folder on its own, with no compiler, says so', async () => {
    // The folder route needs a build in place (npm links a folder dependency, and npm does not install a
    // linked package's devDependencies): the README does not offer it, and a build without a compiler
    // fails saying to use the tarball (it said only "tsc: not found").
    const readme = readFileSync(join(SDK, 'typescript/README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('```ts'));
    expect(install).toMatch(/npm pack/);
    expect(install).toMatch(/npm install \/path\/to\/fundgate-sdk-0\.1\.0\.tgz/);
    expect(install).not.toMatch(/^npm install \.\/sdk\/typescript/m);
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-sdk-dir-'));
    const copy = join(dir, 'sdk');
    cpSync(join(SDK, 'typescript'), copy, { recursive: true, filter: (src) => !/\/(dist|node_modules)$/.test(src) });
    const app = join(dir, 'app');
    await run('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), '{ "name": "fresh", "version": "1.0.0", "private": true }');
    const failed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', copy], { cwd: app, timeout: 120_000 }).then(
      () => null,
      (e: { stderr: string }) => e,
    );
    expect(failed?.stderr).toMatch(/needs the TypeScript compiler/);
    expect(failed?.stderr).toMatch(/npm pack/);
  }, 240_000);

  it('Python: pip install --no-index ./sdk/python into a fresh venv; limit typed int; README as long description; no committed .pyc', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-sdk-py-'));
    await run('python3', ['-m', 'venv', join(dir, 'venv')], { timeout: 120_000 });
    await run(join(dir, 'venv/bin/pip'), ['install', '--no-index', join(SDK, 'python')], { timeout: 120_000 });
    const { stdout } = await run(join(dir, 'venv/bin/python'), ['-c',
      "import inspect, fundgate; print(inspect.signature(fundgate.FundgateClient.get_proposals).parameters['limit'].annotation)"], { cwd: dir });
    expect(stdout.trim()).toBe('Optional[int]');
    // the README is the package's long description (what pip show -v and an index page show)
    const meta = await run(join(dir, 'venv/bin/python'), ['-c',
      "import importlib.metadata as m, json; d = m.metadata('fundgate'); print(json.dumps([d['Description-Content-Type'], d.get_payload()]))"], { cwd: dir });
    const [contentType, description] = JSON.parse(meta.stdout) as [string, string];
    expect(contentType).toBe('text/markdown');
    expect(description).toBe(readFileSync(join(SDK, 'python/README.md'), 'utf8'));
    const tracked = await run('git', ['ls-files', 'sdk'], { cwd: join(SDK, '..') });
    expect(tracked.stdout).not.toMatch(/\.pyc$|__pycache__/m);
  }, 240_000);
});
