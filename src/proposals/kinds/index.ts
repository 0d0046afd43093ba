// The one list of proposal kinds. Adding a kind: a file in this folder and a line here (and its route).
import type { ProposalKind } from '../dto/proposal.dto';
import type { ProposalBooksRepository } from '../proposal-books.repository';
import { capitalActivity } from './capital-activity';
import { expense } from './expense';
import { journalEntry } from './journal-entry';
import type { Execution, ProposalKindRules } from './kind';
import { lpReport } from './lp-report';

const KINDS = {
  'journal-entry': journalEntry,
  expense,
  'capital-activity': capitalActivity,
  'lp-report': lpReport,
} satisfies { [K in ProposalKind]: ProposalKindRules<never, unknown> };

type Kinds = typeof KINDS;
type InputOf<K extends ProposalKind> = Parameters<Kinds[K]['validate']>[0];
type PayloadOf<K extends ProposalKind> = ReturnType<Kinds[K]['validate']>;
type RulesOf = { [K in ProposalKind]: ProposalKindRules<InputOf<K>, PayloadOf<K>> };
const RULES: RulesOf = KINDS;

/** A proposal's kind with the payload of that kind (what is stored and re-checked). */
export type KindedPayload = { [K in ProposalKind]: { kind: K; payload: PayloadOf<K> } }[ProposalKind];
export type ProposalPayload = KindedPayload['payload'];
/** A propose request: the route's kind with its validated DTO. */
export type KindedInput = { [K in ProposalKind]: { kind: K; input: InputOf<K> } }[ProposalKind];

function validateKind<K extends ProposalKind>(kind: K, input: InputOf<K>): { kind: K; payload: PayloadOf<K> } {
  return { kind, payload: RULES[kind].validate(input) };
}

async function checkKind<K extends ProposalKind>(
  books: ProposalBooksRepository,
  fundId: string,
  kind: K,
  payload: PayloadOf<K>,
  lock: boolean,
): Promise<{ kind: K; payload: PayloadOf<K> }> {
  return { kind, payload: await RULES[kind].check(books, fundId, payload, lock) };
}

function executeKind<K extends ProposalKind>(
  books: ProposalBooksRepository,
  fundId: string,
  ref: string,
  kind: K,
  payload: PayloadOf<K>,
): Promise<Execution> {
  return RULES[kind].execute(books, fundId, ref, payload);
}

/** Structural rules, then the rules against the books (no locks): what staging a proposal runs. */
export async function validateProposal(
  books: ProposalBooksRepository,
  fundId: string,
  request: KindedInput,
): Promise<ProposalPayload> {
  const valid = validateKind(request.kind, request.input);
  const checked = await checkKind(books, fundId, valid.kind, valid.payload, false);
  return checked.payload;
}

/**
 * Approval, inside its transaction: the rules again with the rows relied on locked, then the effect.
 * `books` is bound to the approval transaction (`books.with(m)`).
 */
export async function executeProposal(
  books: ProposalBooksRepository,
  fundId: string,
  proposalId: string,
  stored: KindedPayload,
): Promise<Execution> {
  // before the checks: a publication in flight commits first, and the check then sees the books closed through it
  if (RULES[stored.kind].booksIntoNav) await books.holdNavInputs(fundId);
  const checked = await checkKind(books, fundId, stored.kind, stored.payload, true);
  return executeKind(books, fundId, `proposal:${proposalId}`, checked.kind, checked.payload);
}

export type { Execution } from './kind';
