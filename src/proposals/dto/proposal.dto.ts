import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { NotBlank } from '../../common/validation/not-blank';

export const PROPOSAL_KINDS = ['journal-entry', 'expense', 'capital-activity', 'lp-report'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export class ProposalJournalLineDto {
  @ApiProperty({ example: '5600' }) accountCode: string;
  @ApiProperty({ example: '1250.00' }) debit: string;
  @ApiProperty({ example: '0.00' }) credit: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

/**
 * The staged payload. One declared schema for the four kinds (a union written out): each kind
 * fills its own members — journal-entry: entryDate, description, lines; expense: category,
 * vendor, amount, accrualDate, periodEnd, description; capital-activity: investorId, type,
 * shareClass, shareClassId, amount, fraction, dealingDate; lp-report: lpReportId, or
 * periodStart, periodEnd, narrative.
 */
export class ProposalPayloadDto {
  @ApiPropertyOptional({ example: '2026-03-31' }) entryDate?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ type: ProposalJournalLineDto, isArray: true }) lines?: ProposalJournalLineDto[];
  @ApiPropertyOptional({ enum: ['administration', 'audit', 'legal', 'other'] }) category?: string;
  @ApiPropertyOptional() vendor?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '4200.00' }) amount?: string | null;
  @ApiPropertyOptional({ example: '2026-03-31' }) accrualDate?: string;
  @ApiPropertyOptional({ format: 'uuid' }) investorId?: string;
  @ApiPropertyOptional({ enum: ['subscription', 'redemption'] }) type?: string;
  @ApiPropertyOptional({ example: 'Class A' }) shareClass?: string;
  @ApiPropertyOptional({ format: 'uuid' }) shareClassId?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '0.5' }) fraction?: string | null;
  @ApiPropertyOptional({ example: '2026-06-30' }) dealingDate?: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) lpReportId?: string | null;
  @ApiPropertyOptional({ example: '2026-01-01' }) periodStart?: string;
  @ApiPropertyOptional({ example: '2026-03-31' }) periodEnd?: string;
  @ApiPropertyOptional() narrative?: string;
}

export class ActorDto {
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Null when the person acted in the console (session)',
  })
  keyId: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The person (null for a service identity)',
  })
  userId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Ada Lovelace',
    description: "The person's display name, for reviewers (null for a service identity's key)",
  })
  displayName: string | null;
}

export class ProposalDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: PROPOSAL_KINDS }) kind: string;
  @ApiProperty({ enum: PROPOSAL_STATUSES }) status: string;
  @ApiProperty({ type: ProposalPayloadDto }) payload: ProposalPayloadDto;
  @ApiProperty({ type: ActorDto }) proposedBy: ActorDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "When a checker approved or rejected it (null while pending, and when withdrawn: that is the maker's act, see withdrawnAt)",
  })
  decidedAt: string | null;
  @ApiProperty({ type: ActorDto, nullable: true, description: 'The checker who approved or rejected it' })
  decidedBy: ActorDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'The approval note or the rejection reason' })
  decisionNote: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'journal-entry:7d1e…',
    description: 'What approval created or changed in the books',
  })
  executionRef: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When its maker withdrew it (status withdrawn); null otherwise',
  })
  withdrawnAt: string | null;
  @ApiProperty({
    type: ActorDto,
    nullable: true,
    description: 'Who withdrew it: the person or service identity that staged it (keyId null through the console)',
  })
  withdrawnBy: ActorDto | null;
  @ApiProperty({ type: String, nullable: true, description: "The maker's note when withdrawing (optional)" })
  withdrawalNote: string | null;
}

export class ProposalListDto {
  @ApiProperty({ type: ProposalDto, isArray: true }) items: ProposalDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}

export class ProposalListQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ enum: PROPOSAL_STATUSES })
  @IsOptional()
  @IsIn(PROPOSAL_STATUSES)
  status?: string;
}

/** An optional note of 1 to 2 000 characters, not blank: an approval's, a withdrawal's. */
const OptionalNote = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 2000, ...(description ? { description } : {}) }),
    Optional(),
    IsString(),
    Length(1, 2000),
    NotBlank(),
  );

export class ApproveProposalDto {
  @OptionalNote()
  note?: string;
}

export class WithdrawProposalDto {
  @OptionalNote('Why it is withdrawn; kept on the proposal as withdrawalNote')
  note?: string;
}

export class RejectProposalDto {
  @ApiProperty({ maxLength: 2000 })
  @IsString()
  @Length(1, 2000)
  @NotBlank()
  reason: string;
}

export class NavPublicationDto {
  @ApiProperty({ format: 'uuid' }) navRunId: string;
  @ApiProperty({ example: '2026-03-31' }) valuationDate: string;
  @ApiProperty({ example: 'complete' }) status: string;
  @ApiProperty({ type: String, nullable: true, example: '125000000.00' }) netAssetValue: string | null;
  @ApiProperty({ format: 'date-time' }) publishedAt: string;
}
