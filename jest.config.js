// One jest run: unit specs beside the code (src, *.spec.ts) and e2e specs in test/ (*.e2e-spec.ts).
const swc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.(ts|js|mjs)$': ['@swc/jest', { ...swc, swcrc: false }] },
  // A few dependencies ship ESM only; they are compiled to CommonJS for jest like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition)/)'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  setupFiles: ['<rootDir>/test/setup/env.ts'],
  testTimeout: 180000, // seeding the demo books once per run can take a minute on a loaded 2-core machine
  maxWorkers: 2,
};
