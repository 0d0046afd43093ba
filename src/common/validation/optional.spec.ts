import 'reflect-metadata';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import * as console from '../../identity/dto/console.dto';
import * as keys from '../../keys/dto/key.dto';
import * as proposals from '../../proposals/dto/proposal.dto';
import * as propose from '../../proposals/dto/propose.dto';
import * as webhooks from '../../webhooks/dto/webhook.dto';

/** Members class-validator skips when null (IsOptional), per DTO class. */
function skipsNull(cls: new () => object): string[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(cls, '', true, false)
    .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION && m.name === 'isOptional')
    .map((m) => m.propertyName);
}

function nullable(cls: new () => object, property: string): boolean {
  const props = Reflect.getMetadata('swagger/apiModelProperties', cls.prototype, property) as
    { nullable?: boolean } | undefined;
  return props?.nullable === true;
}

describe('body DTOs: a null is validated unless the schema says the member is nullable', () => {
  const modules = { console, keys, proposals, propose, webhooks };
  const classes = Object.entries(modules).flatMap(([mod, exports]) =>
    Object.entries(exports)
      .filter(([name, v]) => typeof v === 'function' && !name.endsWith('QueryDto'))
      .map(([name, v]) => [`${mod}.${name}`, v as new () => object] as const),
  );

  it.each(classes)('%s', (_name, cls) => {
    const undeclared = skipsNull(cls).filter((p) => !nullable(cls, p));
    expect(undeclared).toEqual([]);
  });
});
