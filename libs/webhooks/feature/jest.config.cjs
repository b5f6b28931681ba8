const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhooks-feature',
  roots: ['<rootDir>/libs/webhooks/feature'],
};
