// The three states of anything loaded from the API.
export type Load<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T };

export const LOADING = { status: 'loading' } as const;
