import { parse as secureJsonParse } from 'secure-json-parse';
import { ProblemError } from '../errors/problem';

/** Deeper JSON than this is refused before parsing: nothing we accept nests more than a few levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Route config (`@RouteConfig({ [DEFER_JSON_BODY_AT]: characters })`): a JSON body of at least this
 * many characters is not parsed on the event loop; the handler receives it as a {@link DeferredJsonBody} and
 * parses and validates it where it does the work (the calculators' worker threads).
 */
export const DEFER_JSON_BODY_AT = 'deferJsonBodyAt';

/** A JSON body left as text by the body parser (see DEFER_JSON_BODY_AT). */
export class DeferredJsonBody {
  constructor(readonly text: string) {}
}

/** The size from which a route defers its JSON body, or undefined when it never does. */
export function deferJsonBodyAt(routeConfig: unknown): number | undefined {
  const at = (routeConfig as Record<string, unknown> | undefined)?.[DEFER_JSON_BODY_AT];
  return typeof at === 'number' ? at : undefined;
}

/** At most `max` `{` and `[` in the whole text (native indexOf; a large CSV field costs almost nothing). */
function fewOpeners(text: string, max: number): boolean {
  let n = 0;
  for (const opener of ['{', '[']) {
    for (let i = text.indexOf(opener); i !== -1; i = text.indexOf(opener, i + 1)) if (++n > max) return false;
  }
  return true;
}

/** True when `text` opens more than `max` arrays/objects at once (strings skipped); one linear pass, no recursion. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  if (fewOpeners(text, max)) return false; // depth can never exceed the number of openers
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/**
 * The one JSON body parser, on the event loop and in worker threads alike: an empty body is `{}`,
 * a body nested deeper than `maxDepth` is a 400 naming the body, invalid JSON a 400 with the
 * parser's message; `__proto__` and `constructor.prototype` members are refused (secure-json-parse,
 * as Fastify's own parser does).
 */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (text.trim() === '') return {};
  if (jsonDepthExceeds(text, maxDepth)) {
    throw new ProblemError('invalid_request', `the body nests arrays or objects deeper than ${maxDepth} levels`, [
      { field: 'body', message: `must not nest deeper than ${maxDepth} levels` },
    ]);
  }
  try {
    return secureJsonParse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw (err as Error).message === FORBIDDEN_PROTOTYPE ? forbiddenMember() : notJson(err as Error);
  }
}

/** secure-json-parse's refusal of a `__proto__` member, or `prototype` inside `constructor`: valid JSON, a name not allowed. */
const FORBIDDEN_PROTOTYPE = 'Object contains forbidden prototype property';

function forbiddenMember(): ProblemError {
  return new ProblemError(
    'invalid_request',
    'the body is valid JSON but has a member named __proto__ (or constructor.prototype), which is not allowed',
    [{ field: 'body', message: 'must not have a member named __proto__ or constructor.prototype' }],
  );
}

/**
 * Why JSON.parse refused a body, as the client may be told it: V8 quotes the text around an
 * unexpected token ("Unexpected token 'h', ...\"password\":hunter2se\"... is not valid JSON"), and the
 * body may be a sign-in or token request, so such a message becomes "an unexpected token"; the
 * positional ones ("... at position 12", "Unexpected end of JSON input") quote nothing and stay.
 */
export function jsonSyntaxReason(err: Error): string {
  return err.message.includes('is not valid JSON') ? 'an unexpected token' : err.message;
}

/** The 400 for a body that is not JSON, naming the body (MCP answers it as a JSON-RPC parse error). */
export function notJson(err: Error): ProblemError {
  return new ProblemError('invalid_request', `the body is not valid JSON: ${jsonSyntaxReason(err)}`, [
    { field: 'body', message: 'is not valid JSON' },
  ]);
}
