// Builds dist/: CommonJS (dist/cjs), ES modules (dist/esm) and types (dist/types), each build folder marked
// with its module type so Node reads dist/esm as ESM and dist/cjs as CommonJS. Run by `npm run build` and
// by `prepare`, so `npm pack` puts a built dist/ in the tarball, which then installs with no build at all.
//
// The TypeScript compiler is looked for from this folder upwards: the service's node_modules in a checkout,
// or this package's devDependency after `npm install` here. Without one, say how to install instead.
const { execFileSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc', { paths: [__dirname] });
} catch {
  process.stderr.write(
    '@fundgate/sdk: building dist/ needs the TypeScript compiler, and none is installed from this folder up.\n' +
      'Install the SDK from its tarball instead (it ships dist/ and needs no build):\n' +
      '  cd sdk/typescript && npm pack        # in a checkout of the service, after its npm install\n' +
      '  npm install /path/to/fundgate-sdk-0.1.0.tgz\n' +
      'or run `npm install` in sdk/typescript first (it installs its devDependency, typescript).\n',
  );
  process.exit(1);
}
for (const config of ['tsconfig.json', 'tsconfig.esm.json']) {
  execFileSync(process.execPath, [tsc, '-p', config], { cwd: __dirname, stdio: 'inherit' });
}
writeFileSync(`${__dirname}/dist/esm/package.json`, '{ "type": "module" }\n');
writeFileSync(`${__dirname}/dist/cjs/package.json`, '{ "type": "commonjs" }\n');
