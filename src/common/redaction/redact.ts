// The metadata keys @nestjs/swagger's @ApiProperty writes (its constants module is not exported).
const DECORATORS = {
  API_MODEL_PROPERTIES: 'swagger/apiModelProperties',
  API_MODEL_PROPERTIES_ARRAY: 'swagger/apiModelPropertiesArray',
} as const;

/**
 * Default-deny redaction driven by the same @ApiProperty metadata that documents the response
 * in OpenAPI: only declared properties are copied, recursively. Anything else is dropped.
 * Property names that may carry PII or secrets are refused even if declared.
 */
/** PII wherever the words appear in a member's name. */
const PERSONAL = new Set(
  (
    'email emailaddress legalname fullname taxid tin ssn address postaladdress streetaddress street iban ' +
    'bankaccount bankdetails accountnumber routingnumber passport phone phonenumber dateofbirth'
  ).split(' '),
);
/** Secrets when the name ends with them (signingSecret), not a fact about one (previousSecretExpiresAt). */
const SECRET = new Set('secret apisecret apikey password keyhash'.split(' '));

/**
 * Whether a member's name may carry PII or a secret, in any spelling: the name is split into its
 * words (camelCase, snake_case, kebab-case) and every run of up to three adjacent words is looked
 * up, so legal_name, tax-id, investorEmail, billingAddress and signingSecret are caught, and
 * classNavPerUnit (which holds the letters "ssn") is not.
 */
export function forbiddenProperty(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j <= Math.min(words.length, i + 3); j++) {
      const run = words.slice(i, j).join('');
      if (PERSONAL.has(run) || (j === words.length && SECRET.has(run))) return true;
    }
  return false;
}
export const WALLET_FORMAT = 'wallet-address';

export class RedactionError extends Error {}

const DELIBERATE = 'fundgate:deliberate-sensitive';

/**
 * Marks one property whose name the redactor refuses (email, secret…) as deliberately served, with
 * the reason (e.g. the signed-in person's own email; a TOTP secret shown once at enrolment).
 */
export const DeliberatelyServed =
  (reason: string): PropertyDecorator =>
  (target, key) => {
    if (!reason) throw new Error('DeliberatelyServed needs a reason');
    Reflect.defineMetadata(DELIBERATE, reason, target, key);
  };

type Plan =
  | { kind: 'passthrough-primitive' }
  | { kind: 'wallet' }
  | { kind: 'object'; fields: [string, Plan, boolean][] }
  | { kind: 'map'; value: Plan };

type Ctor = new (...args: unknown[]) => unknown;
const plans = new WeakMap<Ctor, Plan>();
const PRIMITIVES = new Set<unknown>([String, Number, Boolean, 'string', 'number', 'boolean', 'integer']);

function resolveType(meta: Record<string, unknown>): unknown {
  let t = meta.type;
  // Lazy form `type: () => Dto` (not a class): call it.
  if (typeof t === 'function' && !PRIMITIVES.has(t) && !(t as { prototype?: unknown }).prototype)
    t = (t as () => unknown)();
  if (Array.isArray(t)) return t[0];
  return t;
}

function hasSchema(t: unknown): t is Ctor {
  return (
    typeof t === 'function' &&
    Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, (t as Ctor).prototype) !== undefined
  );
}

function planFor(dto: Ctor): Plan {
  const cached = plans.get(dto);
  if (cached) return cached;
  const names: string[] = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) ?? [];
  if (names.length === 0) throw new RedactionError(`${dto.name} declares no properties`);
  const plan: Plan = { kind: 'object', fields: [] };
  plans.set(dto, plan); // set before recursing: self-referencing schemas terminate
  try {
    for (const raw of names) {
      const name = raw.replace(/^:/, '');
      if (forbiddenProperty(name) && !Reflect.getMetadata(DELIBERATE, dto.prototype, name))
        throw new RedactionError(`${dto.name}.${name} may carry PII or a secret`);
      const meta: Record<string, unknown> =
        Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, name) ?? {};
      plan.fields.push([name, fieldPlan(meta), meta.isArray === true || Array.isArray(meta.type)]);
    }
  } catch (err) {
    plans.delete(dto); // never cache a half-built plan
    throw err;
  }
  return plan;
}

function fieldPlan(meta: Record<string, unknown>): Plan {
  if (meta.format === WALLET_FORMAT) return { kind: 'wallet' };
  const t = resolveType(meta);
  if (hasSchema(t)) return planFor(t);
  const extra = meta.additionalProperties as Record<string, unknown> | boolean | undefined;
  if (extra && typeof extra === 'object') {
    const inner = extra.$ref ? undefined : extra.type;
    if (inner === 'string' || inner === 'number' || inner === 'boolean' || inner === 'integer')
      return { kind: 'map', value: { kind: 'passthrough-primitive' } };
    throw new RedactionError('a map property must declare primitive additionalProperties');
  }
  if (t === 'object') throw new RedactionError('an untyped object property cannot be redacted');
  // `string | null` reflects as Object: allowed, but only a primitive passes at run time.
  return { kind: 'passthrough-primitive' };
}

export function shortenWallet(value: string): string {
  if (value.length <= 12) return value;
  return `${value.slice(0, 6)}…${value.slice(-4)}`;
}

function apply(value: unknown, plan: Plan, isArray: boolean): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (isArray) {
    if (!Array.isArray(value)) throw new RedactionError('expected an array');
    return value.map((v) => apply(v, plan, false));
  }
  switch (plan.kind) {
    case 'passthrough-primitive':
      if (typeof value === 'object') throw new RedactionError('an object where a primitive was declared');
      return value;
    case 'wallet':
      if (typeof value !== 'string') throw new RedactionError('wallet address must be a string');
      return shortenWallet(value);
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) throw new RedactionError('expected a map');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = apply(v, plan.value, false);
      return out;
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) throw new RedactionError('expected an object');
      const src = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, fp, arr] of plan.fields) {
        if (name in src) out[name] = apply(src[name], fp, arr);
      }
      return out;
    }
  }
}

/** Copies only what `dto` declares. Throws RedactionError when the value does not fit. */
/** Builds (and caches) a schema's redaction plan now: throws RedactionError for a member that may carry PII or a secret. */
export function checkRedactable(dto: Ctor): void {
  planFor(dto);
}

export function redact(value: unknown, dto: Ctor, isArray = false): unknown {
  return apply(value, planFor(dto), isArray);
}
