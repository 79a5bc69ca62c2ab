#!/usr/bin/env bash
# The whole test suite: unit, repository and API/contract tests on SQLite and PostgreSQL
# (Vitest), then the end-to-end tests in Chromium (Playwright). Prints each stage's time and
# `N passed, N failed` last. The static checks (API types, OpenAPI lint, biome lint and format,
# dependency rules, typecheck) run side by side with the page build; the test stages run one after the
# other, each already using both cores.
set -uo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1 REDOCLY_TELEMETRY=off
export PATH="$PWD/node_modules/.bin:$PATH"
# Node keeps the compiled form of every module it loads here: the servers, probes and CLIs the tests
# start (dozens of each) then skip compiling ~1,500 modules again (~0.6 s of CPU a server start).
export NODE_COMPILE_CACHE="$PWD/.tmp/node-compile-cache"
mkdir -p .tmp
suite_start=$SECONDS
stage() { printf '[stage] %-28s %4ds\n' "$1" "$2"; }

t=$SECONDS
bash scripts/ensure-test-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
stage "test dependencies" $((SECONDS - t))

fail_setup() { echo "$1"; echo "0 passed, 1 failed"; exit 1; }

# name, log, command: run in the background, each with its own log and time
declare -A pids logs starts
check() {
  local name=$1 log=$2
  shift 2
  logs[$name]=$log
  starts[$name]=$SECONDS
  ("$@" >"$log" 2>&1; echo $? >"$log.rc"; echo $((SECONDS)) >"$log.end") &
  pids[$name]=$!
}
t=$SECONDS
openapi-typescript >.tmp/gen-api.log 2>&1 || { cat .tmp/gen-api.log; fail_setup "openapi-typescript failed"; }
check "openapi lint" .tmp/openapi-lint.log redocly lint openapi/openapi.yaml --format=summary
# Style and layering (biome.jsonc, .dependency-cruiser.cjs): a broken rule fails the run.
check "biome lint" .tmp/lint.log npm run --silent lint
check "dependency rules" .tmp/lint-deps.log npm run --silent lint:deps
check "format" .tmp/format.log npm run --silent format:check
# Node and Vitest strip types without checking them: the exhaustive Record<...> tables and the
# generated API types only hold if tsc runs here.
check "typecheck" .tmp/typecheck.log npm run --silent typecheck
check "astro build" .tmp/build.log astro build
failed_checks=()
for name in "${!pids[@]}"; do
  wait "${pids[$name]}"
  rc=$(cat "${logs[$name]}.rc")
  stage "$name" $(($(cat "${logs[$name]}.end") - ${starts[$name]}))
  [ "$rc" -eq 0 ] || failed_checks+=("$name")
done
stage "static checks and build" $((SECONDS - t))
if [ ${#failed_checks[@]} -gt 0 ]; then
  for name in "${failed_checks[@]}"; do
    echo "--- $name failed:"
    tail -60 "${logs[$name]}"
  done
  fail_setup "${failed_checks[*]} failed (dependency rules: DESIGN.md section 2; format: npm run format)"
fi

rm -f .tmp/vitest.json .tmp/playwright.json
t=$SECONDS
vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
vitest_rc=$?
stage "vitest" $((SECONDS - t))
t=$SECONDS
PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/playwright.json playwright test --reporter=list,json
pw_rc=$?
stage "playwright" $((SECONDS - t))
stage "whole suite" $((SECONDS - suite_start))

node scripts/test-summary.ts .tmp/vitest.json .tmp/playwright.json
summary_rc=$?
if [ $vitest_rc -ne 0 ] || [ $pw_rc -ne 0 ] || [ $summary_rc -ne 0 ]; then exit 1; fi
