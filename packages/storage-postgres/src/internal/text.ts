/**
 * Whether PostgreSQL's `text` can hold `value`: it cannot hold NUL (the server refuses such a parameter), so no
 * stored value contains one, and a lookup by such a value finds nothing without asking the database.
 */
export const storable = (value: string): boolean => !value.includes("\u0000")
