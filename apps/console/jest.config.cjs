const preset = require('../../jest.preset.js');
const { swcOptions } = require('../../tools/build/swc-options.cjs');

const options = swcOptions();

module.exports = {
  ...preset,
  displayName: 'console',
  roots: ['<rootDir>/apps/console'],
  // The views are .tsx: the same SWC options with JSX (React's automatic runtime).
  transform: {
    ...preset.transform,
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        ...options,
        swcrc: false,
        jsc: {
          ...options.jsc,
          parser: { ...options.jsc.parser, tsx: true },
          transform: { ...options.jsc.transform, react: { runtime: 'automatic' } },
        },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
