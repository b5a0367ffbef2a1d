// Which files under src/ are not part of the built package (tests, test helpers, fixtures, the
// security-corpus tooling). One list, used by the build (scripts/build.mjs) and by the import rules
// (.dependency-cruiser.cjs: shipped files must not import these). Regular expressions over paths
// relative to the repository root, with forward slashes.
const NOT_SHIPPED = [
  '\\.test\\.ts$',
  '\\.test-d\\.ts$',
  '(^|/)test-support\\.ts$',
  '(^|/)testing-helpers\\.ts$',
  '/test-fixtures/',
  '/fixtures/',
  '/__snapshots__/',
  '^src/testing/',
  // The security corpus runner (`npm run eval:security`) reads the repository's case files.
  '^src/permissions/corpus/',
  '^src/cli/eval-security\\.ts$',
  '^src/cli/shared/corpus-describers\\.ts$',
];

module.exports = { NOT_SHIPPED };
