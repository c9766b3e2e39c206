/** What the two databases say when a write breaks a constraint, read the same way for both. */

/** Whether `error` is a unique-index violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === '23505' || error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
