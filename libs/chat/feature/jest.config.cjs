const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'chat-feature',
  roots: ['<rootDir>/libs/chat/feature'],
};
