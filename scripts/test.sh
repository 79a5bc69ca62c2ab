#!/usr/bin/env bash
# The whole test suite: unit, repository and API/contract tests on SQLite and PostgreSQL
# (Vitest), then the end-to-end tests in Chromium (Playwright). Prints `N passed, N failed` last.
set -uo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1 REDOCLY_TELEMETRY=off
export PATH="$PWD/node_modules/.bin:$PATH"
mkdir -p .tmp
bash scripts/ensure-test-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

fail_setup() { echo "$1"; echo "0 passed, 1 failed"; exit 1; }
openapi-typescript >/dev/null || fail_setup "openapi-typescript failed"
redocly lint openapi/openapi.yaml --format=summary >/dev/null 2>&1 || { redocly lint openapi/openapi.yaml; fail_setup "openapi lint failed"; }
# Style and layering (biome.jsonc, .dependency-cruiser.cjs): a broken rule fails the run.
npm run --silent lint >.tmp/lint.log 2>&1 || { tail -60 .tmp/lint.log; fail_setup "biome lint failed"; }
npm run --silent lint:deps >.tmp/lint-deps.log 2>&1 || { cat .tmp/lint-deps.log; fail_setup "dependency rules broken (DESIGN.md section 2)"; }
npm run --silent format:check >.tmp/format.log 2>&1 || { tail -60 .tmp/format.log; fail_setup "formatting is off (npm run format)"; }
astro build >.tmp/build.log 2>&1 || { tail -30 .tmp/build.log; fail_setup "astro build failed"; }

rm -f .tmp/vitest.json .tmp/playwright.json
vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
vitest_rc=$?
PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/playwright.json playwright test --reporter=list,json
pw_rc=$?

node scripts/test-summary.ts .tmp/vitest.json .tmp/playwright.json
summary_rc=$?
if [ $vitest_rc -ne 0 ] || [ $pw_rc -ne 0 ] || [ $summary_rc -ne 0 ]; then exit 1; fi
