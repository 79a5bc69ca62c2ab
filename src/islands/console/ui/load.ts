// The three states of anything loaded from the API; a failed answer keeps its HTTP status.
export type Load<T> = { status: 'loading' } | { status: 'error'; message: string; httpStatus?: number } | { status: 'ready'; data: T };

export const LOADING = { status: 'loading' } as const;
