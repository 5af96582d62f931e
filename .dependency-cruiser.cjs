// The layers of graphene-rpc, checked by `npm run check:layers` (part of `npm test`).
//
// The front end's import graph is transport → pipeline → (session, dispatch, handlers,
// subscriptions) → pool ⇒ workers → store; the chain's is node → plugins → evaluators → store →
// protocol → crypto → fc, one folder per level. Each rule below names one edge that must not exist.
// There are no known violations: any import that breaks a rule fails `npm test`. test/layers.test.ts
// proves every rule fires on a small tree that breaks each of them (test/fixtures/layers/).
//
// Paths are relative to the directory cruised from; rules match .ts sources and the .js files of
// the fixture tree alike.

/** Project files only: rules about what a folder may import say nothing of npm packages or node:. */
const PROJECT = '^(src|workers|bench|test)/';
const FRONT_END = '^src/(transport|session|pipeline|dispatch|pool|handlers|subscriptions)/';
const ENTRY = '^src/(main|cli|serving-process|serving-thread)\\.[jt]s$';
/**
 * The levels of src/chain, lowest first: a level imports its own folder and the levels below it,
 * never one above (docs/architecture.md "The chain's levels").
 */
const CHAIN_LEVELS = ['fc', 'crypto', 'protocol', 'store', 'evaluators', 'plugins', 'node'];
/** The folders of the chain's levels above `level`. */
const above = (level) => `^src/chain/(${CHAIN_LEVELS.slice(CHAIN_LEVELS.indexOf(level) + 1).join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports: modules that cannot be understood, tested or loaded one at a time.',
      from: { path: PROJECT },
      to: { circular: true },
    },
    {
      name: 'workers-not-front-end',
      severity: 'error',
      comment: 'Worker threads read the store and write replies; the front end (and its entry points) must not be loaded into them.',
      from: { path: '^workers/' },
      to: { path: [FRONT_END, ENTRY, '^src/startup/'] },
    },
    {
      name: 'protocol-not-chain',
      severity: 'error',
      comment: 'The wire protocol is independent of the chain store and its types.',
      from: { path: '^src/protocol/' },
      to: { path: '^src/chain/' },
    },
    {
      name: 'transport-is-the-outer-layer',
      severity: 'error',
      comment: 'Transport moves bytes to the pipeline; it knows no API tables, handlers, dispatch, pool, chain, subscriptions or workers.',
      from: { path: '^src/transport/' },
      to: { path: ['^src/(api|handlers|dispatch|pool|chain|subscriptions)/', '^workers/'] },
    },
    {
      name: 'pipeline-not-transport',
      severity: 'error',
      comment: 'The pipeline takes a call from either transport and gives back bytes; it never reaches back into the transport that called it.',
      from: { path: '^src/pipeline/' },
      to: { path: '^src/transport/' },
    },
    {
      name: 'below-the-pipeline',
      severity: 'error',
      comment:
        'Dispatch, the front-end handlers, subscriptions and the pool are reached through the pipeline; they never import it or the transport above it (the session has its own rule).',
      from: { path: '^src/(dispatch|handlers|subscriptions|pool)/' },
      to: { path: '^src/(pipeline|transport)/' },
    },
    {
      name: 'pool-is-the-inner-layer',
      severity: 'error',
      comment: 'The pool runs calls on worker threads for the layers above it; it knows no session, dispatch, front-end handler or subscription.',
      from: { path: '^src/pool/' },
      to: { path: '^src/(session|dispatch|handlers|subscriptions)/' },
    },
    {
      name: 'session-holds-state-only',
      severity: 'error',
      comment: 'A session is per-connection state; calls leave it through the pipeline, not from it.',
      from: { path: '^src/session/' },
      to: { path: ['^src/(pool|dispatch|pipeline|transport)/', '^src/chain/node/producer\\.[jt]s$'] },
    },
    {
      name: 'dispatch-not-session',
      severity: 'error',
      comment: 'Dispatch routes a call by API set; the session is handed to it, never imported.',
      from: { path: '^src/dispatch/' },
      to: { path: '^src/session/' },
    },
    {
      name: 'api-tables-closed',
      severity: 'error',
      comment:
        'The API-set tables are data: they import only each other, the error table, and the two leaf modules of fc formats (time text, object ids) that the argument converters read with.',
      from: { path: '^src/api/' },
      to: { path: PROJECT, pathNot: ['^src/api/', '^src/errors\\.[jt]s$', '^src/chain/fc/(fc-json|object-id)\\.[jt]s$'] },
    },
    {
      name: 'chain-not-front-end',
      severity: 'error',
      comment: 'The chain store, writer and producer serve the front end and the workers; they never reach back into the front end.',
      from: { path: '^src/chain/' },
      to: { path: FRONT_END },
    },
    {
      name: 'chain-fc-is-the-floor',
      severity: 'error',
      comment:
        'fc encoding (fc-json, fc-json-reader, fc-variant, object-id) is what every other level reads and writes with: the numbers, times, variants and ids of fc. It imports no other level of the chain.',
      from: { path: '^src/chain/fc/' },
      to: { path: above('fc') },
    },
    {
      name: 'chain-crypto-below-protocol',
      severity: 'error',
      comment:
        'Keys, signatures, memos and Pedersen commitments are fc-level cryptography: they know key and hash formats, not the protocol structures, store or evaluators that use them.',
      from: { path: '^src/chain/crypto/' },
      to: { path: above('crypto') },
    },
    {
      name: 'chain-protocol-below-store',
      severity: 'error',
      comment:
        "The protocol (the serializer, fees, authorities, prices, transaction building) is Core's libraries/protocol: functions of a transaction's JSON, with no store or chain state, so a wallet, `generate` and the workers use it alone.",
      from: { path: '^src/chain/protocol/' },
      to: { path: above('protocol') },
    },
    {
      name: 'chain-store-below-evaluators',
      severity: 'error',
      comment:
        'The store, its working state and the pending undo log hold objects and undo their changes; they do not know the operations that make the changes (the workers open the store without any of them).',
      from: { path: '^src/chain/store/' },
      to: { path: above('store') },
    },
    {
      name: 'chain-evaluators-below-plugins',
      severity: 'error',
      comment:
        "Evaluators change chain state, one operation at a time, as Core's do; the plugins index what a whole block did and are called after them by the block applier, never by an evaluator (Core's plugins likewise hang off the database, not the evaluators).",
      from: { path: '^src/chain/evaluators/' },
      to: { path: above('evaluators') },
    },
    {
      name: 'chain-plugins-below-node',
      severity: 'error',
      comment:
        'The plugins (market history, account storage, history pages, the transfer index) are called by the node level (the block applier) and read by the workers; they never reach up to the block applier, producer or genesis.',
      from: { path: '^src/chain/plugins/' },
      to: { path: above('plugins') },
    },
    {
      name: 'chain-not-generate',
      severity: 'error',
      comment: '`graphene-rpc generate` (src/generate/) writes a chain as a client of the chain would: the chain never imports it.',
      from: { path: '^src/chain/' },
      to: { path: '^src/generate/' },
    },
    {
      name: 'tuning-is-a-leaf',
      severity: 'error',
      comment:
        'src/tuning.ts holds the tuning constants that the front end, the pool and the worker threads all read: it imports nothing (no project module, no package, no node: module), so loading it into any of them loads nothing else and runs nothing.',
      from: { path: '^src/tuning\\.[jt]s$' },
      to: { path: '.+' },
    },
    {
      name: 'node-without-dev-packages',
      severity: 'error',
      comment:
        'The node (src/, workers/) runs from an install without devDependencies (npm install --omit=dev, README "Install"): it may not import one. The benchmark and the tests may.',
      from: { path: '^(src|workers)/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'node-not-bench-or-test',
      severity: 'error',
      comment: 'The node never loads benchmark or test code: `graphene-rpc bench` loads the benchmark by URL, only when it runs.',
      from: { path: '^(src|workers)/' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'main-is-an-entry-point',
      severity: 'error',
      comment: 'Only the CLI, tests and the benchmark start a node; nothing else imports src/main.ts.',
      from: { pathNot: [ENTRY, '^test/', '^bench/'] },
      to: { path: '^src/main\\.[jt]s$' },
    },
    {
      name: 'startup-only-from-entry-points',
      severity: 'error',
      comment:
        "src/startup/ holds the composition root's steps (credentials, options, the store and writer, a front end, serving processes): only main.ts, a serving process' or thread's entry, tests and the benchmark use them; the layers they wire never import them back.",
      from: { pathNot: [ENTRY, '^src/startup/', '^test/', '^bench/'] },
      to: { path: '^src/startup/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^node_modules/', '^test/fixtures/'] },
    // Type-only imports are dependencies too: a layer that names another's types depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
