// The import rules of DESIGN.md section 2, checked by `npm run lint:deps` (scripts/test.sh fails
// on any violation). Type-only imports count: a type cycle couples modules as much as a value one.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lib-imports-nothing-of-ours',
      comment: 'src/lib is pure code shared by browser and server: it imports only other src/lib modules.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'lib-is-dependency-free',
      comment: 'src/lib runs in the browser and the server: no packages and no Node built-ins (tests excepted).',
      severity: 'error',
      from: { path: '^src/lib/', pathNot: '([.]test[.]ts|^src/lib/i18n/.*)$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'] },
    },
    {
      name: 'i18n-uses-only-formatjs',
      comment:
        'src/lib/i18n (catalogues and their formatting, shared by browser and server) may use ICU MessageFormat (FormatJS) and the Accept-Language parser, nothing else.',
      severity: 'error',
      from: { path: '^src/lib/i18n/', pathNot: '[.]test[.]ts$' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'],
        pathNot: '^node_modules/(intl-messageformat|@formatjs/[^/]+|negotiator)/',
      },
    },
    {
      name: 'embed-client-imports-nothing',
      comment: "src/embed is the script companies put on their own sites (<= 5 KB): it imports nothing, neither ours nor a package.",
      severity: 'error',
      from: { path: '^src/embed/', pathNot: '[.]test[.]ts$' },
      to: { path: '.' },
    },
    {
      name: 'api-imports-only-lib',
      comment: 'src/api (generated types and the typed client) imports only src/lib and its own generated types.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/', pathNot: '^src/(api|lib)/' },
    },
    {
      name: 'islands-import-only-api-and-lib',
      comment: 'Hydrated React reaches the server only through the typed API client.',
      severity: 'error',
      from: { path: '^src/islands/' },
      to: { path: '^src/', pathNot: '^src/(islands|api|lib)/' },
    },
    {
      name: 'astro-never-imports-server',
      comment:
        'Pages, layouts, components and islands get server services through Astro locals; importing src/server ' +
        'would bundle a second copy of the database and caches. (src/probe is a Node process, not Astro: its own rule below.)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(server|probe)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'http-never-imports-db',
      comment: 'HTTP handlers call domain services; only the domain reaches repositories.',
      severity: 'error',
      from: { path: '^src/server/http/' },
      to: { path: '^src/server/db/' },
    },
    {
      name: 'domain-never-imports-http',
      comment: 'Domain services know nothing of Fastify, requests or problem responses.',
      severity: 'error',
      from: { path: '^src/server/domain/' },
      to: { path: '^src/server/http/' },
    },
    {
      name: 'engine-never-imports-domain',
      comment: 'The check engine talks to the domain through small interfaces it owns, never by importing it.',
      severity: 'error',
      from: { path: '^src/server/engine/' },
      to: { path: '^src/server/domain/' },
    },
    {
      name: 'net-imports-only-lib-and-node',
      comment:
        'src/server/net (SSRF guard, resolvers, network error texts, RDAP directory) sits below every area that ' +
        'talks out (engine, domain, security, notify, jobs, config): it imports only src/lib and its own modules.',
      severity: 'error',
      from: { path: '^src/server/net/' },
      to: { path: '^src/', pathNot: '^src/(server/net|lib)/' },
    },
    {
      name: 'net-imports-only-lib-and-node',
      comment:
        'Packages in src/server/net: Node built-ins, and ipaddr.js alone (the SSRF guard classifies addresses with ' +
        "its IANA range tables); tests may use their runner.",
      severity: 'error',
      from: { path: '^src/server/net/', pathNot: '[.]test[.]ts$' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'unknown'],
        pathNot: '^node_modules/ipaddr[.]js/',
      },
    },
    {
      name: 'config-imports-no-domain-or-security',
      comment:
        'config.ts is parsed once at boot, below the areas it configures: what it checks values against lives in ' +
        'src/lib, src/server/net or a module of its own beside it (threat-config.ts, common-passwords.ts), never in ' +
        'domain/ or security/, not even through one of those modules.',
      severity: 'error',
      from: { path: '^src/server/config[.]ts$' },
      to: { path: '^src/server/(domain|security)/', reachable: true },
    },
    {
      name: 'probe-talks-to-the-platform-over-http-only',
      comment:
        'The probe process (src/probe) runs where the platform is not (another region, a customer network): it ' +
        'reaches the platform over HTTP with its token, never its database, services, handlers or API client. It ' +
        "runs the engine's kinds and checkers, the network layer, src/lib, and reads its settings with the " +
        "platform's parsers (server/env-values.ts).",
      severity: 'error',
      from: { path: '^src/probe/' },
      to: { path: '^src/', pathNot: '^src/(probe/|lib/|server/(engine/(kinds|checkers)/|net/|env-values[.]ts$))' },
    },
    {
      name: 'migrations-are-frozen',
      comment: 'A migration never changes once released, so it imports no application code (packages only).',
      severity: 'error',
      from: { path: '^src/server/db/migrations/' },
      to: { path: '^src/' },
    },
    {
      name: 'no-cycles',
      comment: 'Modules of src/ form no import cycle (type-only imports included).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', circular: true },
    },
    {
      name: 'console-features-never-import-each-other',
      comment:
        'A console feature imports only its own files, ui/, stores/ and the app shell: what two features ' +
        'share (code or CSS) lives in ui/ or stores/, so a feature can be moved or removed alone.',
      severity: 'error',
      from: { path: '^src/islands/console/features/([^/]+)/' },
      to: { path: '^src/islands/console/features/', pathNot: '^src/islands/console/features/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/api/schema[.]d[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Resolve `.ts` specifiers and Astro/React files the way Vite and Node do.
    extraExtensionsToScan: ['.astro'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
