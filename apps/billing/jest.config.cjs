const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'billing', roots: ['<rootDir>/apps/billing'] };
