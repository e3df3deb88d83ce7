import nx from '@nx/eslint-plugin';

// Who may import whom (`npm run lint` builds the Nx project graph first: without it this rule is skipped).
// Who may import whom. A service lib sees only the shared plumbing (contracts, bus, db, platform)
// and the pure domain rules two components must apply alike (type:domain: the access decision,
// which access and the gateway both run), never another service; web code sees only contracts.
// Tests may also use the testing and runtime libs.
const plumbing = ['type:contracts', 'type:platform', 'type:db', 'type:bus', 'type:domain'];
const depConstraints = (extra = []) => [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', ...extra] },
  // Pure functions of contracts' types: no state, no I/O, no framework.
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...extra] },
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

/**
 * Server code that may hold a Map (or an LRU) across calls, in a class field or at module scope:
 * state that is not a copy of what another service or the database owns. Anything else kept so
 * is a replica-local cache, and belongs in a read model. Each entry says why it is not one.
 */
const REPLICA_STATE_ALLOWED = {
  // Indexes of one compiled glob set, built once from its globs: derived, never stale.
  'libs/access-decisions/src/lib/path-glob.ts': 'indexes of a compiled glob set',
  // Visits counted here and not yet written, and the reads waiting on one batch: buffers of writes, emptied each flush.
  'libs/access/src/lib/readers/visit-counter.service.ts': 'write buffers, emptied each flush',
  // Check tallies summed in memory until the next write: a write buffer.
  'libs/access/src/lib/stats/rollups.service.ts': 'a write buffer, emptied each flush',
  // Organisations' reads and readers counted in memory until the next write: a write buffer.
  'libs/access/src/lib/stats/organisation-reads.service.ts': 'a write buffer, emptied each flush',
  // The in-process bus of `npm start`: its queues and routes are the transport itself.
  'libs/bus/src/lib/events/in-process.transport.ts': 'the in-process transport',
  'libs/bus/src/lib/requests/in-process.transport.ts': 'the in-process transport',
  // The first answers of idempotent requests, kept a fixed time and evicted by age: the store of record
  // for one gateway process (Redis is the shared one), not a copy of anything another owns.
  'libs/gateway/src/lib/edge/idempotency.service.ts': 'an age-evicted store of first answers',
  // Each route handler's edge (credentials, rate limit), read from its decorators once: derived from code, never stale.
  'libs/gateway/src/lib/edge/route-edges.ts': 'route edges read once per handler',
  // Rate-limit counters of this gateway process: the counts themselves, dropped whole per window.
  'libs/gateway/src/lib/edge/rate-limit.storage.ts': 'rate-limit counters',
  // The published node kit may not depend on libs/bus: its JWKS keys are the whole key set, replaced
  // at each fetch (so bounded by what identity publishes), refetched on an unknown kid at most every 30 s.
  'libs/node-client/src/lib/customer-tokens.ts': "the published kit's JWKS key set",
  // Prometheus series counted on every request, by label set: the counts themselves, read at each scrape.
  'libs/platform/src/lib/metrics.ts': 'metric counters',
  // Compiled validators, one per DTO class (a WeakMap on the class): derived from code, never stale.
  'libs/platform/src/lib/validation.ts': 'validators compiled per class',
  // The fake processor's own objects: it is the owner, not a replica.
  'tools/fake-processor/src/lib/fake-processor.ts': "the fake processor's own data",
};
/**
 * Nest's names say what a file holds: modules in *.module.ts, HTTP controllers and bus handlers
 * in *.controller.ts and *.handler.ts, providers in *.service.ts (or the Nest kind they are: a
 * guard, pipe, interceptor, read model). A decorated class in a file of another name is refused.
 */
const FILE_FOR = {
  Module: /\.module\.ts$/,
  Controller: /\.(controller|handler)\.ts$/,
  Injectable: /\.(service|guard|pipe|interceptor|read-model)\.ts$/,
};
const fileNames = {
  meta: { type: 'problem', schema: [], docs: { description: 'Nest classes live in files named after their kind' } },
  create(context) {
    return {
      Decorator(node) {
        const name = node.expression.type === 'CallExpression' ? node.expression.callee.name : undefined;
        const expected = FILE_FOR[name];
        if (expected && !expected.test(context.filename)) {
          context.report({ node, message: `@${name}() belongs in a file whose name matches ${expected}: name the file after what it holds.` });
        }
      },
    };
  },
};

/** A Map, WeakMap or LRU created into a class field or module-scope variable. */
const HELD_MAP = 'NewExpression[callee.name=/^((Weak)?Map|LRUCache)$/]';

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
    files: ['libs/**/src/**/*.ts', 'apps/**/src/**/*.ts', 'tools/**/src/**/*.ts'],
    // The runtime's two hosts make the root module of whatever they boot, inside a function.
    ignores: ['**/__tests__/**', '**/*.spec.ts', 'apps/e2e/**', 'libs/runtime/src/lib/http-host.ts', 'libs/runtime/src/lib/service-host.ts'],
    plugins: { gatehouse: { rules: { 'file-names': fileNames } } },
    rules: { 'gatehouse/file-names': 'error' },
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
    // changed by the notices of the writes, loaded once per key, standing on its last value. So any
    // Map held across calls (whatever its name) is refused outside them and REPLICA_STATE_ALLOWED.
    files: ['libs/**/*.ts', 'apps/**/*.ts', 'tools/**/*.ts'],
    ignores: [
      'libs/bus/src/lib/read-models/**',
      'libs/sdk/**',
      'libs/elements/**',
      'apps/dashboard/**',
      '**/__tests__/**',
      '**/*.spec.ts',
      'apps/e2e/**',
      ...Object.keys(REPLICA_STATE_ALLOWED),
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'lru-cache', message: READ_MODEL_HINT }] }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='next'][callee.object.callee.property.name=/^(keys|entries|values)$/]", message: `Evicting a Map's oldest entry makes it a cache. ${READ_MODEL_HINT}` },
        { selector: `PropertyDefinition > ${HELD_MAP}`, message: `A Map kept in a field outlives the call: a cache unless allowed in eslint.config.mjs. ${READ_MODEL_HINT}` },
        {
          selector: `AssignmentExpression[left.type='MemberExpression'][left.object.type='ThisExpression'] > ${HELD_MAP}`,
          message: `A Map kept in a field outlives the call: a cache unless allowed in eslint.config.mjs. ${READ_MODEL_HINT}`,
        },
        {
          selector: `:matches(Program, ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > ${HELD_MAP}`,
          message: `A Map at module scope outlives the call: a cache unless allowed in eslint.config.mjs. ${READ_MODEL_HINT}`,
        },
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
