// One set of SWC options for the app build and for Jest, so tests run the
// code exactly as it is shipped: legacy decorators with metadata (NestJS DI
// and TypeORM need design:type), CommonJS output, Node 20 target.
const path = require('node:path');
const tsconfig = require('../../tsconfig.base.json');

const workspaceRoot = path.resolve(__dirname, '../..');

/** @param {{ rewritePaths?: boolean }} [opts] */
function swcOptions(opts = {}) {
  return {
    sourceMaps: true,
    module: { type: 'commonjs', strictMode: true, ignoreDynamic: true },
    jsc: {
      target: 'es2022',
      keepClassNames: true,
      parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      ...(opts.rewritePaths
        ? { baseUrl: workspaceRoot, paths: tsconfig.compilerOptions.paths }
        : {}),
    },
  };
}

module.exports = { swcOptions, workspaceRoot };
