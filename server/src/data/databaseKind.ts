/**
 * Which engine is underneath. The connections open one or the other; the retry policy
 * differs by it (PGlite is never retried). It sits beside both families, not in either,
 * so neither imports the other for it and no import circle forms through their barrels.
 */
export type DatabaseKind = 'pglite' | 'postgres';
