const preset = require('../../jest.preset.js');

// The command lines of the repository's tools: each answers --help and refuses
// an unknown option, without a build or a database; and the references of the
// repository's documents (decision numbers, Markdown links, bench results),
// which read files only. The project is this folder only: the tools themselves belong to no project (libs/testing loads
// tools/build, and a project there would close a dependency cycle).
module.exports = { ...preset, displayName: 'tools', roots: ['<rootDir>/tools/test'] };
