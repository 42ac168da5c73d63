/**
 * How both servers read their table of defaults against an environment (server/src/config.ts,
 * bff/src/config.ts): each setting from its variable when set and not empty, else its
 * default; a numeric setting must be a finite, non-negative number.
 */

/** Called for a value that cannot be read; it throws the process's own configuration error. */
export type Invalid = (envName: string, text: string) => never;

/** A number from an environment variable's text: finite and non-negative, else `invalid` is called. */
export function envNumber(envName: string, text: string, invalid: Invalid): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) invalid(envName, text);
  return value;
}

/**
 * Every setting of `defaults` from `env`: its variable's text read by `parse` (which is
 * given the default, to know the setting's kind), or the default when the variable is
 * unset, empty or has no name.
 */
export function resolveSettings<T extends Record<string, unknown>>(
  defaults: T,
  envNames: { readonly [K in keyof T]?: string },
  env: Readonly<Record<string, string | undefined>>,
  parse: (envName: string, text: string, fallback: unknown) => unknown,
): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const envName = envNames[key as keyof T];
    const text = envName ? env[envName] : undefined;
    resolved[key] = text === undefined || text === '' ? fallback : parse(envName!, text, fallback);
  }
  return resolved;
}
