const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'billing-data-access',
  roots: ['<rootDir>/libs/billing/data-access'],
};
