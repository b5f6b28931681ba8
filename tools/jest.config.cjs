const preset = require('../jest.preset.js');

// The command lines of the repository's tools (tools/test): each answers --help
// and refuses an unknown option, without a build or a database.
module.exports = { ...preset, displayName: 'tools', roots: ['<rootDir>/tools/test'] };
