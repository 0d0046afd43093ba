// Marks each build folder with its module type, so Node reads dist/esm as ESM and dist/cjs as CommonJS.
const { writeFileSync } = require('node:fs');
writeFileSync(`${__dirname}/dist/esm/package.json`, '{ "type": "module" }\n');
writeFileSync(`${__dirname}/dist/cjs/package.json`, '{ "type": "commonjs" }\n');
