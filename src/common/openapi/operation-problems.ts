/**
 * Which problem statuses an operation can answer beyond those its declarations imply (auth, rate
 * limit, body, path parameters): the domain refusals, by route. `contract.ts` adds the implied ones.
 * A route missing here fails the e2e response validator the first time a test sees the status.
 */
export interface ProblemRule {
  match: RegExp; // against "METHOD /path/{param}"
  statuses: number[];
}

export const DOMAIN_PROBLEMS: ProblemRule[] = [
  { match: /^GET \/health\/ready$/, statuses: [503] },
  { match: /^\w+ \/api\/v1\/fund\//, statuses: [404] }, // the key's fund, an account, a preset, a run
  { match: /^GET \/api\/v1\/fund\/(risk\/var|pnl\/attribution)$/, statuses: [422] },
  { match: /^POST \/api\/v1\/fund\/proposals\/[a-z-]+$/, statuses: [409, 422] }, // Idempotency-Key in progress / reused; rules
  { match: /^POST \/api\/v1\/(fund|console)\/proposals\/\{id\}\/withdraw$/, statuses: [409] }, // not pending
  { match: /^POST \/api\/v1\/admin\/proposals\/\{id\}\/(approve|reject)$/, statuses: [409, 422] }, // already decided; executor rules
  { match: /^POST \/api\/v1\/admin\/nav-runs\/\{id\}\/publish$/, statuses: [409] },
  { match: /^POST \/api\/v1\/admin\/nav-runs$/, statuses: [409, 422] }, // a job already runs; range too large
  { match: /^POST \/api\/v1\/webhooks$/, statuses: [409, 422] }, // the fund's subscription cap; private target
  { match: /^PATCH \/api\/v1\/webhooks\/\{id\}$/, statuses: [422] },
  { match: /^POST \/api\/v1\/webhooks\/\{id\}\/deliveries\/\{deliveryId\}\/retry$/, statuses: [409] },
  { match: /^GET \/api\/v1\/admin\/activity$/, statuses: [404] }, // keyId of another account
  { match: /^POST \/api\/v1\/admin\/keys$/, statuses: [404] },
  { match: /^POST \/api\/v1\/console\/sign-in$/, statuses: [401, 403, 429] }, // invalid_credentials / totp_required; csrf_failed (Origin); failed sign-ins per email
  { match: /^POST \/api\/v1\/console\/sign-up$/, statuses: [403, 409, 429] },
  { match: /^\w+ \/api\/v1\/console\/invitations\/\{token\}/, statuses: [403, 409, 410] },
  { match: /^POST \/api\/v1\/console\/password-reset$/, statuses: [403] }, // csrf_failed (Origin); mail not configured
  { match: /^\w+ \/api\/v1\/console\/password-reset\/\{token\}$/, statuses: [403, 410] }, // Origin; used, replaced or expired
  { match: /^(PATCH|DELETE) \/api\/v1\/console\/members\/\{userId\}$/, statuses: [409] },
  { match: /^DELETE \/api\/v1\/console\/members\/invitations\/\{id\}$/, statuses: [409] }, // already accepted
  { match: /^POST \/api\/v1\/console\/service-accounts$/, statuses: [409] },
  { match: /^POST \/api\/v1\/console\/account\//, statuses: [409] }, // TOTP not enrolled / already enabled
  { match: /^POST \/api\/mcp(\/public)?$/, statuses: [403, 406] }, // Origin refused; Accept without application/json
];

export function domainProblems(method: string, path: string): number[] {
  const key = `${method.toUpperCase()} ${path}`;
  return DOMAIN_PROBLEMS.filter((r) => r.match.test(key)).flatMap((r) => r.statuses);
}
