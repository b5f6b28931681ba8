const preset = require('../jest.preset.js');

// Renders deploy/overlays/* and validates every object against the Kubernetes
// (and KEDA) schemas; checks docker/compose.yml against the config pieces, and
// docs/dependencies.md against package.json and the lock, and the pipeline's audit job.
module.exports = { ...preset, displayName: 'deploy', roots: ['<rootDir>/deploy'] };
