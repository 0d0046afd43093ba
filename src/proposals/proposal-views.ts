import type { ProposalDto } from './dto/proposal.dto';
import type { ProposalRow } from './proposals.repository';

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
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    decidedBy: r.decided_by_account_id
      ? {
          accountId: r.decided_by_account_id,
          keyId: r.decided_by_key_id,
          userId: r.decided_by_user_id,
          displayName: r.decided_by_display_name,
        }
      : null,
    decisionNote: r.decision_note,
    executionRef: r.execution_ref,
  };
}
