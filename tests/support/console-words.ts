// Vitest setup: the console's words are fetched before its first screen draws (islands/console/
// i18n.ts); unit tests of console modules read them as the drawn console does, in English.
import { loadConsoleWords } from '../../src/islands/console/i18n.ts';

await loadConsoleWords('en');
