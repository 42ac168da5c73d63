/** Types of codeSamples.mjs, for the tests that import it. */
export function withCodeSamples<T extends object>(document: T): T;
