const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'task-worker', roots: ['<rootDir>/apps/task-worker'] };
