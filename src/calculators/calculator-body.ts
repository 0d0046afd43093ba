import { createValidationPipe } from '../common/errors/validation';
import { parseJsonBody } from '../common/http/json-body';
import type { CalculatorDefinition } from './calculators.registry';

const pipe = createValidationPipe();

/**
 * A calculator body deferred by the body parser (a large CSV or report), made into exactly what
 * the request thread would have handed the handler: parsed by the one JSON body parser and
 * validated by the global validation pipe against the calculator's DTO. Runs in the worker thread
 * that computes the answer, so the event loop never parses or validates the large text.
 */
export async function deferredCalculatorBody<I extends object>(
  def: CalculatorDefinition<I, unknown>,
  text: string,
): Promise<Partial<I>> {
  const json = parseJsonBody(text);
  return (await pipe.transform(json, { type: 'body', metatype: def.dto, data: undefined })) as Partial<I>;
}
