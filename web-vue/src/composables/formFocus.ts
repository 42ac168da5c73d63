/**
 * Moves focus to the first field with an error (its message is tied to it, so it is
 * heard). Returns true when there was one.
 */
export function focusFirstError(errors: Record<string, string>, fieldIds: Record<string, string>): boolean {
  for (const [field, message] of Object.entries(errors)) {
    if (!message) continue;
    const id = fieldIds[field];
    if (id) document.getElementById(id)?.focus();
    return true;
  }
  return false;
}
