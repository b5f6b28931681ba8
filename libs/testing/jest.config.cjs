const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'testing', roots: ['<rootDir>/libs/testing'] };
