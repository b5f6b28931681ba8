// Lets plain Node run the workspace's TypeScript: compiles each .ts file with
// SWC (the build's options) on require, and resolves the @genhub/* aliases.
// There is no ts runner in the workspace; this is the build's own compiler.
require('./register-aliases.cjs');
const fs = require('node:fs');
const swc = require('@swc/core');
const { swcOptions } = require('./swc-options.cjs');

const options = swcOptions();
require.extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = swc.transformSync(source, { ...options, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};
