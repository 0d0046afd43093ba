import { ProblemError, type FieldError } from '../../common/errors/problem';
import type { ProposalBooksRepository } from '../proposal-books.repository';

export interface Execution {
  executionRef: string;
  distributedReport?: { id: string; periodStart: string; periodEnd: string; distributedAt: string };
}

/**
 * One kind of proposal, in one file: what its request must satisfy, what the books must allow, and the
 * effect approval has. `I` is the request DTO, `P` the payload stored with the proposal.
 */
export interface ProposalKindRules<I, P> {
  /** Structural rules the DTO cannot express (one of two members, date order): 400 naming the fields. */
  validate(input: I): P;
  /** Semantic rules against the books: 422 naming the rule. With `lock`, the rows relied on are locked. */
  check(books: ProposalBooksRepository, fundId: string, payload: P, lock: boolean): Promise<P>;
  /** The effect of approval, inside the approval transaction (after `check` with lock). `ref` names the proposal. */
  execute(books: ProposalBooksRepository, fundId: string, ref: string, payload: P): Promise<Execution>;
}

export const badShape = (errors: FieldError[]) =>
  new ProblemError('invalid_parameter', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
