// Resolves @genhub/* aliases from tsconfig.base.json for code Jest runs outside
// its module registry (globalSetup/globalTeardown ignore moduleNameMapper).
const Module = require('node:module');
const path = require('node:path');
const { compilerOptions } = require('../../tsconfig.base.json');

const root = path.resolve(__dirname, '../..');
const aliases = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    alias,
    path.join(root, target),
  ]),
);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};
