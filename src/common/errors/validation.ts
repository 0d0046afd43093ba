import { type ArgumentMetadata, type ValidationError, ValidationPipe } from '@nestjs/common';
import { DeferredJsonBody } from '../http/json-body';
import { getMetadataStorage } from 'class-validator';
import { inputFindings } from '../validation/input-walk';
import { UNKNOWN_FIELD_MESSAGE } from '../validation/member-names';
import { type FieldError, ProblemError } from './problem';

/** Flattens class-validator errors into `{ field, message }` with dotted paths. */
export function fieldErrors(errors: ValidationError[], parent = ''): (FieldError & { missing: boolean })[] {
  const out: (FieldError & { missing: boolean })[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const constraints = e.constraints ?? {};
    if ('whitelistValidation' in constraints) {
      out.push({ field, message: UNKNOWN_FIELD_MESSAGE, missing: false });
    } else {
      const missing = e.value === undefined && Object.keys(constraints).length > 0;
      if (missing) out.push({ field, message: 'is required', missing });
      else
        for (const message of explaining(constraints)) {
          out.push({ field, message: message.replace(new RegExp(`^${e.property}\\s`), ''), missing });
        }
    }
    if (e.children && e.children.length > 0) out.push(...fieldErrors(e.children, field));
  }
  return out;
}

/** Checks of a value's type: when one fails, the others (range, length, pattern) only repeat it ("abc" is not ≥ 1). */
const TYPE_CHECKS = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject', 'isDateString']);

/** The messages that explain a field's failure: its type check alone when that failed, else every one. */
function explaining(constraints: Record<string, string>): string[] {
  const type = Object.keys(constraints).find((name) => TYPE_CHECKS.has(name));
  return type === undefined ? Object.values(constraints) : [constraints[type]];
}

export function validationProblem(errors: ValidationError[]): ProblemError {
  const list = fieldErrors(errors);
  const missing = list.filter((f) => f.missing);
  const code = missing.length === list.length && missing.length > 0 ? 'missing_parameter' : 'invalid_parameter';
  const detail = list.map((f) => `${f.field}: ${f.message}`).join('; ');
  return new ProblemError(
    code,
    detail,
    list.map(({ field, message }) => ({ field, message })),
  );
}

type DtoClass = new (...args: never[]) => object;

const BUILT_IN = new Set<unknown>([String, Number, Boolean, Array, Object, undefined]);
const isDto = (metatype: unknown) => typeof metatype === 'function' && !BUILT_IN.has(metatype);

/**
 * Before class-validator runs: a DTO body must be a JSON object (null, arrays and scalars are a 400
 * naming the body), and no string anywhere in a body, query or path parameter may hold NUL or
 * invalid Unicode. Raw bodies (MCP) are checked when their tool runs the REST route; a deferred
 * body is passed through untouched and validated by this same pipe where its route parses it.
 */
class ProblemValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (value instanceof DeferredJsonBody) return value; // validated where it is parsed (see DEFER_JSON_BODY_AT)
    if (metadata.type === 'custom' || (metadata.type === 'body' && !isDto(metadata.metatype)))
      return super.transform(value, metadata);
    if (
      metadata.type === 'body' &&
      value !== undefined &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    ) {
      const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
      throw new ProblemError('invalid_request', `the body must be a JSON object, got ${got}`, [
        { field: 'body', message: 'must be a JSON object' },
      ]);
    }
    const found = inputFindings(value, metadata.data ?? '', isDto(metadata.metatype));
    if (found.unsafe.length > 0) throw invalidFields(found.unsafe);
    const refused = [
      ...(metadata.type === 'query' ? repeatedParameters(value, metadata.metatype) : []),
      ...found.hidden,
    ];
    if (refused.length === 0) return super.transform(value, metadata);
    throw await withOtherFailures(refused, () => super.transform(value, metadata));
  }
}

function invalidFields(list: FieldError[]): ProblemError {
  return new ProblemError('invalid_parameter', list.map((f) => `${f.field}: ${f.message}`).join('; '), list);
}

/**
 * `refused` (fields this pipe refuses before class-validator) with every other failing field, as one
 * problem: class-validator still judges the rest, and its messages about a refused field are dropped.
 */
async function withOtherFailures(refused: FieldError[], validate: () => Promise<unknown>): Promise<ProblemError> {
  let others: FieldError[] = [];
  try {
    await validate();
  } catch (err) {
    if (!(err instanceof ProblemError) || !err.errors) throw err;
    others = err.errors;
  }
  const covered = (field: string) => refused.some((r) => field === r.field || field.startsWith(`${r.field}.`));
  return invalidFields([...others.filter((e) => !covered(e.field)), ...refused]);
}

/**
 * A declared query parameter given more than once (`?limit=1&limit=2` is parsed as an array) where its
 * DTO does not take a list (@IsArray): one message saying so, instead of each check failing on the
 * array. An unknown one stays "not a known field".
 */
function repeatedParameters(query: unknown, metatype: unknown): FieldError[] {
  if (query === null || typeof query !== 'object' || !isDto(metatype)) return [];
  const repeated = Object.keys(query).filter((name) => Array.isArray((query as Record<string, unknown>)[name]));
  if (repeated.length === 0) return [];
  const rules = getMetadataStorage().getTargetValidationMetadatas(metatype as DtoClass, '', true, false);
  const declared = (name: string) => rules.some((m) => m.propertyName === name);
  const list = (name: string) => rules.some((m) => m.propertyName === name && m.name === 'isArray');
  return repeated
    .filter((name) => declared(name) && !list(name))
    .map((field) => ({ field, message: 'is given more than once' }));
}

/** Global pipe: whitelist, forbid unknown members, transform; every failing field in one problem. */
export function createValidationPipe(): ValidationPipe {
  return new ProblemValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    stopAtFirstError: false,
    exceptionFactory: (errors) => validationProblem(errors),
  });
}
