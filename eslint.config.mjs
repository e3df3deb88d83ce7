import nx from '@nx/eslint-plugin';

// Who may import whom. A service lib sees only the shared plumbing (contracts, bus, db, platform),
// never another service; web code sees only contracts. Tests may also use the testing lib.
const plumbing = ['type:contracts', 'type:platform', 'type:db', 'type:bus'];
const depConstraints = (extra = []) => [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', ...extra] },
  { sourceTag: 'type:db', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...extra] },
  { sourceTag: 'type:bus', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:db', ...extra] },
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: [...plumbing, ...extra] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: [...plumbing, 'type:service'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: [...plumbing, 'type:service'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...extra] },
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: [...plumbing, 'type:service', 'type:testing'] },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', 'reports', 'tmp', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints() },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/__tests__/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints(['type:testing']) },
      ],
    },
  },
];
