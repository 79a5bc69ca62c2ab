// Adds up the Vitest and Playwright JSON reports into the one line CI reads. Above that line it
// names every failed test with the first lines of its message: CI keeps only the tail of the log.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
const [vitestFile, playwrightFile] = process.argv.slice(2);

/** The first lines of a failure message, without colour codes, short enough for a log tail. */
function firstLines(message: string | undefined): string {
  const plain = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return plain
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 6)
    .map((line) => `    ${line.slice(0, 300)}`)
    .join('\n');
}

interface VitestAssertion {
  status: string;
  fullName?: string;
  title?: string;
  failureMessages?: string[];
}
interface VitestFile {
  name: string;
  status: string;
  message?: string;
  assertionResults?: VitestAssertion[];
}

if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += (v.numFailedTests ?? 0) + (v.numRuntimeErrorTestSuites ?? 0);
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  if (v.numTotalTests === 0) failed += 1;
  for (const file of (v.testResults ?? []) as VitestFile[]) {
    const where = file.name.replace(`${process.cwd()}/`, '');
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of failedTests) {
      failures.push(`FAILED vitest ${where} › ${test.fullName ?? test.title}\n${firstLines(test.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push(`FAILED vitest ${where} (the file itself)\n${firstLines(file.message)}`);
    }
  }
} else failed += 1;

interface PlaywrightTest {
  status: string;
  results?: { error?: { message?: string } }[];
}
interface PlaywrightSpec {
  title: string;
  file: string;
  line: number;
  tests?: PlaywrightTest[];
}
interface PlaywrightSuite {
  specs?: PlaywrightSpec[];
  suites?: PlaywrightSuite[];
}

function playwrightFailures(suite: PlaywrightSuite): void {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue;
      const last = test.results?.at(-1);
      failures.push(`FAILED playwright ${spec.file}:${spec.line} › ${spec.title}\n${firstLines(last?.error?.message)}`);
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child);
}

if (playwrightFile && existsSync(playwrightFile)) {
  const p = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  const s = p.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  for (const suite of (p.suites ?? []) as PlaywrightSuite[]) playwrightFailures(suite);
  for (const error of (p.errors ?? []) as { message?: string }[]) {
    failed += 1;
    failures.push(`FAILED playwright (outside a test)\n${firstLines(error.message)}`);
  }
} else failed += 1;

for (const failure of failures) console.log(failure);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
