// Import rules between Gantry's rooms, checked by `npm run lint` (dependency-cruiser).
// The rooms and what each may import are described in docs/architecture.md ("Rooms").
//
// Rooms from the bottom up; a room may import only the rooms listed before it:
//   core → shell → permissions → sandbox → tools → runtime → mcp → model → loop → agents → fleet → cli
// Tests (`*.test.ts`, `*.test-d.ts`, test-support files, fixtures), `src/testing/` and the dev tooling
// listed in scripts/package-layout.cjs may import any room; no shipped file may import them.

/** Bottom first. */
const ROOMS = ['core', 'shell', 'permissions', 'sandbox', 'tools', 'runtime', 'mcp', 'model', 'loop', 'agents', 'fleet', 'cli'];

/** Files that exist for tests and benches only, and dev tooling: never part of the built package. */
const { NOT_SHIPPED: TEST_ONLY } = require('./scripts/package-layout.cjs');

/** Shared kernels inside tools/: any tool folder may import them; they import no tool folder. */
const TOOL_KERNELS = ['file-io', 'ripgrep', 'tasks', 'scheduling'];

const upward = ROOMS.slice(0, -1).map((room, i) => ({
  name: `room-${room}-imports-down-only`,
  comment: `src/${room}/ may import only ${ROOMS.slice(0, i).join(', ') || 'nothing from another room'} (docs/architecture.md "Rooms")`,
  severity: 'error',
  from: { path: `^src/${room}/`, pathNot: TEST_ONLY },
  to: { path: `^src/(${ROOMS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'library-entry-not-cli',
      comment: 'the package entry (src/index.ts) must not import the command line',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'tools-never-import-permissions',
      comment: 'tools describe their calls (CallDescription); the permission engine judges them — tools never import src/permissions/',
      severity: 'error',
      from: { path: '^src/tools/', pathNot: TEST_ONLY },
      to: { path: '^src/permissions/' },
    },
    {
      name: 'tool-folders-independent',
      comment: `a tool folder imports no other tool folder, only the shared kernels (${TOOL_KERNELS.map((k) => `tools/${k}`).join(', ')}); a kernel imports no tool folder`,
      severity: 'error',
      from: { path: '^src/tools/([^/]+)/', pathNot: TEST_ONLY },
      to: {
        path: '^src/tools/[^/]+/',
        pathNot: ['^src/tools/$1/', `^src/tools/(${TOOL_KERNELS.join('|')})/`],
      },
    },
    {
      name: 'tool-folders-not-registry',
      comment: 'tool folders never import the registry (src/tools/index.ts): the registry imports them',
      severity: 'error',
      from: { path: '^src/tools/[^/]+/', pathNot: TEST_ONLY },
      to: { path: '^src/tools/[^/]+\\.ts$' },
    },
    {
      name: 'testing-only-from-tests',
      comment: 'src/testing/, test-support files and dev tooling are not in the built package: shipped files never import them',
      severity: 'error',
      from: { path: '^src/', pathNot: TEST_ONLY },
      to: { path: TEST_ONLY },
    },
    {
      name: 'src-not-tests-benches',
      comment: 'the library never imports test/, bench/ or examples/',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|examples)/' },
    },
    {
      name: 'no-dev-dependency-at-run-time',
      comment: 'a built file must not need a devDependency at run time (the installed package has none)',
      severity: 'error',
      from: { path: '^src/', pathNot: TEST_ONLY },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-undeclared-package',
      comment: 'every package the library imports is declared in package.json',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-unresolvable-import',
      comment: 'every relative import resolves to a file',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
