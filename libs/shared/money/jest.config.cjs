const preset = require('../../../jest.preset.js');

module.exports = { ...preset, displayName: 'money', roots: ['<rootDir>/libs/shared/money'] };
