// The list queries Okta and Entra ID send (RFC 7644 3.4.2): `filter` with one equality on the
// attribute they match accounts by (`userName eq "…"` for users, `displayName eq "…"` for
// groups), parsed with scim2-parse-filter, and 1-based `startIndex` / `count` paging. Other
// filters are refused with `invalidFilter` naming what is supported, rather than answered wrong.
import { parse, type Filter } from 'scim2-parse-filter';
import { scimError } from './errors.ts';

export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 200;

export interface ListQuery {
  filter?: string;
  startIndex?: number;
  count?: number;
  attributes?: string;
  excludedAttributes?: string;
}

export interface Page {
  /** 1-based, as SCIM counts */
  startIndex: number;
  offset: number;
  limit: number;
}

export function pageOf(q: ListQuery): Page {
  const startIndex = Math.max(1, Math.trunc(q.startIndex ?? 1));
  const limit = Math.min(MAX_COUNT, Math.max(0, Math.trunc(q.count ?? DEFAULT_COUNT)));
  return { startIndex, offset: startIndex - 1, limit };
}

/** The value of `<attribute> eq "value"` (attribute names are case-insensitive), or undefined without a filter. */
export function equalityFilter(filter: string | undefined, attribute: string): string | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  const supported = `Only the filter ${attribute} eq "…" is supported.`;
  let ast: Filter;
  try {
    ast = parse(filter);
  } catch {
    throw scimError('validation', `The filter could not be read. ${supported}`, 'invalidFilter');
  }
  if (
    ast.op !== 'eq' ||
    !('attrPath' in ast) ||
    ast.attrPath.toLowerCase() !== attribute.toLowerCase() ||
    typeof ast.compValue !== 'string'
  )
    throw scimError('validation', supported, 'invalidFilter');
  return ast.compValue;
}

/** Whether the caller asked to leave an attribute out (`excludedAttributes=members`). */
export function excludes(q: ListQuery, attribute: string): boolean {
  return (q.excludedAttributes ?? '').split(',').some((a) => a.trim().toLowerCase() === attribute.toLowerCase());
}

export function listResponse<T>(resources: T[], total: number, page: Page) {
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: total,
    startIndex: page.startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
