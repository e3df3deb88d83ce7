import nx from '@nx/eslint-plugin';

// Who may import whom (`npm run lint` builds the Nx project graph first: without it this rule is skipped).
// Who may import whom. A service lib sees only the shared plumbing (contracts, bus, db, platform),
// never another service; web code sees only contracts. Tests may also use the testing and runtime libs.
const plumbing = ['type:contracts', 'type:platform', 'type:db', 'type:bus'];
const depConstraints = (extra = []) => [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', ...extra] },
  { sourceTag: 'type:db', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...extra] },
  { sourceTag: 'type:bus', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:db', ...extra] },
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: [...plumbing, ...extra] },
  // The one host that boots a service or the gateway: below the apps, above the plumbing.
  { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: [...plumbing, ...extra] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
  // Apps include the demo site, which gates its pages with the Node client's enforcement.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: [...plumbing, 'type:runtime', 'type:service', 'type:client', 'type:example'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...extra] },
  // The web components build on the SDK.
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts', 'type:web'] },
  // The publishable Node client (@gatehouse/node) bundles what it takes from contracts.
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:example', onlyDependOnLibsWithTags: ['type:client'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: [...plumbing, 'type:runtime', 'type:service', 'type:testing', 'type:client', 'type:example'] },
];

const READ_MODEL_HINT = 'Keep it in a ReadModel (ReadModels.define in @gatehouse/bus, docs/architecture.md#read-models).';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  // The generated API types (npm run generate:api-types) are checked by the OpenAPI document's test instead.
  { ignores: ['**/dist', '**/node_modules', '**/.data', 'reports', 'tmp', '**/*.js', '**/*.mjs', 'libs/contracts/src/lib/gateway-api.ts'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints() },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      // Config classes need explicit property types: decorator metadata drives their conversion.
      '@typescript-eslint/no-inferrable-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Browser code: nothing of the server may reach the bundle.
    files: ['libs/sdk/src/**/*.ts', 'libs/elements/src/**/*.ts'],
    ignores: ['**/__tests__/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@gatehouse/contracts', allowTypeImports: true, message: 'Browser packages import only types from contracts.' }] },
      ],
    },
  },
  {
    // State a replica keeps of what others own lives in read models (libs/bus read-models): bounded,
    // changed by the notices of the writes, loaded once per key, standing on its last value.
    files: ['libs/**/*.ts', 'apps/**/*.ts', 'tools/**/*.ts'],
    ignores: ['libs/bus/src/lib/read-models/**', 'libs/sdk/**', 'libs/elements/**', 'apps/dashboard/**', '**/__tests__/**', '**/*.spec.ts', 'apps/e2e/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'lru-cache', message: READ_MODEL_HINT }] }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='next'][callee.object.callee.property.name=/^(keys|entries|values)$/]", message: `Evicting a Map's oldest entry makes it a cache. ${READ_MODEL_HINT}` },
        { selector: 'PropertyDefinition[key.name=/cache|cached|memo|remember|known|fresh|loaded|verified|compiled/i] > NewExpression[callee.name=/^(Weak)?Map$/]', message: `A Map of remembered answers is a cache. ${READ_MODEL_HINT}` },
        { selector: 'VariableDeclarator[id.name=/cache|cached|memo|remember|known|fresh|loaded|verified|compiled/i] > NewExpression[callee.name=/^(Weak)?Map$/]', message: `A Map of remembered answers is a cache. ${READ_MODEL_HINT}` },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/__tests__/**/*.ts', 'apps/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        // A service's own tests boot it as a deployment would: through the runtime.
        { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints(['type:testing', 'type:runtime']) },
      ],
    },
  },
];
