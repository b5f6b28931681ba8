// Shared Jest preset: SWC transform with the build's options, @genhub/* aliases
// resolved from tsconfig.base.json, unit (*.spec.ts) and integration
// (*.int-spec.ts) tests in one run.
const { swcOptions } = require('./tools/build/swc-options.cjs');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/.]/g, '\\$&')}$`] = `<rootDir>/${target}`;
}

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { ...swcOptions(), swcrc: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec|int-spec).ts'],
  setupFiles: ['reflect-metadata'],
  // standardwebhooks depends on ESM-only @stablelib/* packages, bull-board's @fastify/static
  // on the ESM-only content-disposition: Jest must transform them (Node itself loads them
  // through require(esm)).
  transformIgnorePatterns: ['/node_modules/(?!@stablelib/|content-disposition/)'],
};
