import type { Principal } from '../../common/auth/principal';
import { ProblemError } from '../../common/errors/problem';

/**
 * The one fund a key may read: the fund it is bound to. Fund data is never addressed by a fund
 * id from the request; a key without a fund (calculator-only developer key) is refused.
 */
export function fundIdOf(principal: Principal): string {
  if (!principal.fund) throw new ProblemError('forbidden', 'this key is not bound to a fund; fund data needs a fund key');
  return principal.fund.id;
}
