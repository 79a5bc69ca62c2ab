// Saved API answers, one or several JSON documents in one file: a paginated list is saved page by
// page with `curl ... >> file.json`, so the file holds the pages back to back (whitespace between
// them, or none). Each document is parsed on its own; JSON.parse alone refuses the second one.

/** The documents of `text`, in order; throws SyntaxError (with the document's number) on bad JSON. */
export function jsonDocuments(text: string): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i] as string)) i++;
    if (i >= n) break;
    const start = i;
    const open = text[i];
    if (open !== '{' && open !== '[') {
      // A scalar document (no saved API answer is one): parse the rest as one, for its error.
      out.push(JSON.parse(text.slice(start)));
      break;
    }
    // Scan to the matching bracket, skipping strings (brackets inside strings do not count).
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      }
    }
    try {
      out.push(JSON.parse(text.slice(start, i)));
    } catch (e) {
      throw new SyntaxError(`document ${out.length + 1}: ${(e as Error).message}`);
    }
  }
  return out;
}

/**
 * The saved answers of a file: its documents, where a top-level array stands for the answers it
 * lists (pages gathered with `jq -s . page-*.json`).
 */
export function savedAnswers(text: string): unknown[] {
  return jsonDocuments(text).flatMap((d) => (Array.isArray(d) ? d : [d]));
}
