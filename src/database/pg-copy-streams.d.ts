/** The part of pg-copy-streams we use (the package ships no types). */
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  import type { Submittable } from 'pg';

  /** `COPY … FROM STDIN`: write the rows in COPY's format, `end()` commits them; `finished` tells the outcome. */
  export function from(text: string): Writable & Submittable;
}
