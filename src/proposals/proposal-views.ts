import type { ActorDto, ProposalDto } from './dto/proposal.dto';
import type { ProposalRow } from './proposals.repository';

/** An actor of the record (checker or withdrawing maker), or null when the account column is empty. */
function actor(
  accountId: string | null,
  keyId: string | null,
  userId: string | null,
  displayName: string | null,
): ActorDto | null {
  return accountId ? { accountId, keyId, userId, displayName } : null;
}

const isoOrNull = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function proposalView(r: ProposalRow): ProposalDto {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    payload: r.payload,
    proposedBy: {
      accountId: r.proposed_by_account_id,
      keyId: r.proposed_by_key_id,
      userId: r.proposed_by_user_id,
      displayName: r.proposed_by_display_name,
    },
    createdAt: new Date(r.created_at).toISOString(),
    decidedAt: isoOrNull(r.decided_at),
    decidedBy: actor(r.decided_by_account_id, r.decided_by_key_id, r.decided_by_user_id, r.decided_by_display_name),
    decisionNote: r.decision_note,
    executionRef: r.execution_ref,
    withdrawnAt: isoOrNull(r.withdrawn_at),
    withdrawnBy: actor(
      r.withdrawn_by_account_id,
      r.withdrawn_by_key_id,
      r.withdrawn_by_user_id,
      r.withdrawn_by_display_name,
    ),
    withdrawalNote: r.withdrawal_note,
  };
}
