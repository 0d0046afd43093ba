import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError, ProblemError } from './problem';

/** Flattens class-validator errors into `{ field, message }` with dotted paths. */
export function fieldErrors(errors: ValidationError[], parent = ''): (FieldError & { missing: boolean })[] {
  const out: (FieldError & { missing: boolean })[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const constraints = e.constraints ?? {};
    if ('whitelistValidation' in constraints) {
      out.push({ field, message: 'is not a known field', missing: false });
    } else {
      const missing = e.value === undefined && Object.keys(constraints).length > 0;
      if (missing) out.push({ field, message: 'is required', missing });
      else for (const message of Object.values(constraints)) {
        out.push({ field, message: message.replace(new RegExp(`^${e.property}\\s`), ''), missing });
      }
    }
    if (e.children && e.children.length > 0) out.push(...fieldErrors(e.children, field));
  }
  return out;
}

export function validationProblem(errors: ValidationError[]): ProblemError {
  const list = fieldErrors(errors);
  const missing = list.filter((f) => f.missing);
  const code = missing.length === list.length && missing.length > 0 ? 'missing_parameter' : 'invalid_parameter';
  const detail = list.map((f) => `${f.field}: ${f.message}`).join('; ');
  return new ProblemError(code, detail, list.map(({ field, message }) => ({ field, message })));
}

/** Global pipe: whitelist, forbid unknown members, transform; every failing field in one problem. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    stopAtFirstError: false,
    exceptionFactory: (errors) => validationProblem(errors),
  });
}
