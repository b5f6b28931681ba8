const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhooks-data-access',
  roots: ['<rootDir>/libs/webhooks/data-access'],
};
