// Lint rules for the whole workspace. The module boundaries are enforced, not
// decorative: every project has one scope:* and one type:* tag, and a wrong
// import fails `nx lint` (tools/check-boundaries proves it).
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';

const sameAndShared = (scope, ...more) => ({
  sourceTag: `scope:${scope}`,
  onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared', 'scope:platform', ...more],
});

/**
 * Who may depend on whom. Test files (specs) may also use the testing lib;
 * shipped code never can.
 */
function boundaryConstraints(forTests) {
  const constraints = [
    // What kind of project may use what kind.
    {
      sourceTag: 'type:app',
      onlyDependOnLibsWithTags: [
        'type:flow',
        'type:schema',
        'type:feature',
        'type:data-access',
        'type:adapter',
        'type:contracts',
        'type:util',
      ],
    },
    // The task engine composes the domains' features and data access (decision 0132).
    {
      sourceTag: 'type:flow',
      onlyDependOnLibsWithTags: [
        'type:feature',
        'type:data-access',
        'type:adapter',
        'type:contracts',
        'type:util',
      ],
    },
    // The one list of every domain's migrations.
    { sourceTag: 'type:schema', onlyDependOnLibsWithTags: ['type:data-access'] },
    {
      sourceTag: 'type:feature',
      onlyDependOnLibsWithTags: ['type:data-access', 'type:adapter', 'type:contracts', 'type:util'],
    },
    {
      sourceTag: 'type:data-access',
      onlyDependOnLibsWithTags: ['type:util', 'type:contracts'],
    },
    {
      sourceTag: 'type:adapter',
      onlyDependOnLibsWithTags: ['type:util', 'type:contracts'],
    },
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:util'] },
    { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
    {
      sourceTag: 'type:testing',
      onlyDependOnLibsWithTags: [
        'type:schema',
        'type:feature',
        'type:data-access',
        'type:adapter',
        'type:contracts',
        'type:util',
      ],
    },
    // Which domain may use which: only apps and the task engine span domains.
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    {
      sourceTag: 'scope:platform',
      onlyDependOnLibsWithTags: ['scope:shared', 'scope:platform'],
    },
    {
      sourceTag: 'scope:providers',
      onlyDependOnLibsWithTags: ['scope:shared', 'scope:platform', 'scope:providers'],
    },
    // Test helpers compose every domain (migrations, factories) but ship in no app.
    {
      sourceTag: 'scope:testing',
      onlyDependOnLibsWithTags: [
        'scope:schema',
        'scope:shared',
        'scope:platform',
        'scope:accounts',
        'scope:tasks',
        'scope:billing',
        'scope:webhooks',
        'scope:providers',
      ],
    },
    {
      sourceTag: 'scope:schema',
      onlyDependOnLibsWithTags: [
        'scope:accounts',
        'scope:tasks',
        'scope:billing',
        'scope:webhooks',
      ],
    },
    {
      sourceTag: 'scope:task-engine',
      onlyDependOnLibsWithTags: [
        'scope:shared',
        'scope:platform',
        'scope:providers',
        'scope:tasks',
        'scope:chat',
        'scope:billing',
        'scope:webhooks',
      ],
    },
    // The console is a browser app: it reaches the platform only through the contracts' browser entry.
    { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:shared'] },
    sameAndShared('accounts'),
    sameAndShared('tasks', 'scope:providers'),
    sameAndShared('billing'),
    // Chat completions: their own domain (not tasks), over the providers' chat catalogue.
    sameAndShared('chat', 'scope:providers'),
    // The dispatcher signs with the account's webhook secret, read through the accounts lib.
    sameAndShared('webhooks', 'scope:accounts'),
  ];
  if (!forTests) return constraints;
  return constraints.map((c) => ({
    ...c,
    onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:testing', 'scope:testing'],
  }));
}

function boundaryRule(forTests) {
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      banTransitiveDependencies: true,
      depConstraints: boundaryConstraints(forTests),
    },
  ];
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  prettier,
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/.nx',
      '**/.data',
      '**/generated/**',
      'tools/**/*.mjs',
      'tools/**/*.cjs',
      // The performance floor: a package of its own (tools/bench/floor/README.md).
      'tools/bench/floor/**',
    ],
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaryRule(false),
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through @genhub/config, not process.env.',
        },
      ],
    },
  },
  {
    // Configuration is the one place that reads the environment; entry points and tests may too.
    files: [
      'libs/shared/config/**/*.ts',
      '**/main.ts',
      'apps/*/src/tracing.ts',
      'apps/*/src/cli/*.ts',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      'libs/testing/**/*.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Apps and libs never import each other's sources by relative paths or aliases into apps/.
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/**'], message: 'Libs never import apps.' }] },
      ],
    },
  },
  {
    // The browser entry of the contracts lib must stay free of server code.
    files: ['libs/shared/contracts/src/**/*.ts'],
    ignores: ['libs/shared/contracts/src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@nestjs/*',
                'class-validator',
                'class-transformer',
                'typeorm',
                'reflect-metadata',
                'node:*',
              ],
              message: 'Browser entry: server-only code belongs in src/server/.',
            },
            { group: ['**/apps/**'], message: 'Libs never import apps.' },
          ],
        },
      ],
    },
  },
  {
    // The console runs in browsers: the contracts' browser entry, never server code.
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    ignores: ['apps/console/src/**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@genhub/contracts/server', '@genhub/*-feature', '@nestjs/*', 'node:*'],
              message: 'The console talks to the API only through @genhub/contracts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The console's components: the rules of hooks and their dependencies (the plugin's
    // recommended set; `nx lint console` allows no warning).
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Specs and their fixtures (a lib's shared test set-up) may import the testing lib.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.fixture.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaryRule(true) },
  },
];
