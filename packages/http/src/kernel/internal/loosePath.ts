/**
 * Whether the router would match `path` only by reading it loosely: it takes a `;` as the start of a query string
 * (so `/health;x` would answer as `/health`) and an empty segment as an empty path parameter (so
 * `/customers/` would answer as `/customers/{customerId}`). Such a path names no resource of the API.
 */
export const isLoosePath = (path: string): boolean => path.includes(";") || /\/\/|.\/$/.test(path)
