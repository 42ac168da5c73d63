/**
 * The handles sign-up refuses besides a taken one (adr/0046): one a payer could mistake
 * for an existing customer's (the same skeleton: the database's `handle_skeleton`, which
 * folds 1/i/l, 0/o, rn/m and vv/w), and one that looks like the bank speaking (a reserved
 * word as one of its `_`-separated parts, digits around it ignored, or "tidewater"
 * anywhere). Both answer 409 HANDLE_TAKEN: to the visitor the handle is not available.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';

/** Words only the bank's own people would use. */
const RESERVED = new Set([
  'admin', 'administrator', 'root', 'system', 'support', 'help', 'helpdesk', 'service', 'security', 'fraud',
  'official', 'staff', 'team', 'bank', 'banking', 'moderator', 'compliance', 'billing', 'payments', 'api', 'noreply',
]);

/** The handle folded as the database folds it (for the reserved words; the comparison with others is the database's). */
function folded(handle: string): string {
  return handle.toLowerCase().replace(/[1i]/g, 'l').replace(/0/g, 'o').replace(/rn/g, 'm').replace(/vv/g, 'w');
}

/** 409 HANDLE_TAKEN when `handle` looks like the bank speaking. */
export function refuseReservedHandle(handle: string): void {
  const parts = folded(handle).split('_').map((part) => part.replace(/^[0-9]+|[0-9]+$/g, ''));
  const reserved = [...RESERVED].map(folded);
  if (folded(handle).includes(folded('tidewater')) || parts.some((part) => reserved.includes(part))) {
    throw new ApiProblem('HANDLE_TAKEN', 'That handle is reserved. Choose another.');
  }
}
