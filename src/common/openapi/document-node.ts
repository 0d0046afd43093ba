/**
 * A node of an OpenAPI document or JSON Schema, read and rewritten in place by member name. The one
 * loose-JSON type for the walkers (contract finishing, special operations, SDK schema forms, the test
 * harness's contract check): the documents themselves are checked where it matters (Redocly and
 * Spectral lint the published contract, ajv compiles every schema the harness validates with).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI/JSON Schema walkers read arbitrary members of arbitrary depth; see above
export type DocNode = Record<string, any>;
