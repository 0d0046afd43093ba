import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DETAILS } from '../common/openapi/contract';
import { CurrentPrincipal, RequiresScopes } from '../common/auth/auth.decorators';
import { type CallContext, CurrentCall } from '../common/http/call-context';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { ProposalDto, ProposalListDto, ProposalListQueryDto, WithdrawProposalDto } from './dto/proposal.dto';
import {
  CapitalActivityProposalDto,
  ExpenseProposalDto,
  JournalEntryProposalDto,
  LpReportProposalDto,
} from './dto/propose.dto';
import { REPLAYED_HEADER } from './idempotency.service';
import type { KindedInput } from './kinds';
import { ProposalsService } from './proposals.service';
import { NoQuery } from '../common/validation/parameterless';
import { uuidParam } from '../common/validation/uuid-param';

const IdempotencyKeyHeader = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '1..255 visible ASCII characters, kept 24 h per API key. Same key + same body → the first answer replayed with Idempotent-Replayed: true; different body → 422 idempotency_key_reused; first still running → 409 idempotency_in_progress.',
  });

/**
 * The four propose endpoints (scope fund:propose, policy propose-minute), the maker's withdrawal and, for the proposer
 * to follow its proposals, the list and detail (also scope fund:propose: a reader that cannot
 * propose has nothing to follow). A caller holding neither fund:read nor proposals:review sees only
 * their own proposals there (`proposerOnly`): the queue shows investors, amounts and reviewers' notes.
 */

const STAGED = 'The staged proposal; Location: /api/v1/fund/proposals/{id}, where to follow it (also on a replay)';

/** What both withdraw routes (this one for keys, the console's for a session) say of it. */
export const WITHDRAW_DETAILS =
  "Only the proposal's maker may withdraw it: the person who staged it (with any of their keys, or in the console), or the service identity whose key staged it; anyone else's is 404, as one that does not exist. Only a pending proposal (409 invalid_state naming its status otherwise); withdrawing a withdrawn one again answers it unchanged (200: a retry is safe). It leaves the review queue, nothing executes, and no webhook event is sent.";

const OWN_ONLY =
  'With fund:propose alone, only your own proposals (staged with any of your keys); with fund:read or proposals:review too, every proposal of the fund.';

@ApiTags('proposals')
@Controller('api/v1/fund/proposals')
@RequiresScopes('fund:propose')
export class ProposalsController {
  constructor(private readonly proposals: ProposalsService) {}

  private async stage(p: Principal, request: KindedInput, call: CallContext): Promise<ProposalDto> {
    const outcome = await this.proposals.propose(p, request, {
      key: call.idempotencyKey,
      field: call.idempotencyField,
    });
    if (outcome.replayed) call.header(REPLAYED_HEADER, 'true');
    call.header('location', `/api/v1/fund/proposals/${outcome.record.id}`); // where to follow it (a replay too)
    return outcome.record;
  }

  @Post('journal-entry')
  @HttpCode(201)
  @RateLimitPolicy('propose-minute')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Stage a balanced journal entry on existing accounts (executes only on approval)' })
  @Returns(ProposalDto, { status: 201, description: STAGED })
  journalEntry(
    @CurrentPrincipal() p: Principal,
    @Body() body: JournalEntryProposalDto,
    @CurrentCall() call: CallContext,
  ): Promise<ProposalDto> {
    return this.stage(p, { kind: 'journal-entry', input: body }, call);
  }

  @Post('expense')
  @HttpCode(201)
  @RateLimitPolicy('propose-minute')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Stage an expense (booked as an accrual on approval)' })
  @Returns(ProposalDto, { status: 201, description: STAGED })
  expense(
    @CurrentPrincipal() p: Principal,
    @Body() body: ExpenseProposalDto,
    @CurrentCall() call: CallContext,
  ): Promise<ProposalDto> {
    return this.stage(p, { kind: 'expense', input: body }, call);
  }

  @Post('capital-activity')
  @HttpCode(201)
  @RateLimitPolicy('propose-minute')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Stage a subscription or redemption request for a dealing date on the calendar' })
  @ApiExtension(
    DETAILS,
    "A redemption needs units of the class on the dealing date; one for more than the holding (an amount above its value) is dealt as a full redemption: every unit of the investor's in that class, not refused. The dealing date must be on the calendar and at least the notice period away (GET /api/v1/fund/dealing-calendar: its nextDealingDate may be inside it, then 422)",
  )
  @Returns(ProposalDto, { status: 201, description: STAGED })
  capitalActivity(
    @CurrentPrincipal() p: Principal,
    @Body() body: CapitalActivityProposalDto,
    @CurrentCall() call: CallContext,
  ): Promise<ProposalDto> {
    return this.stage(p, { kind: 'capital-activity', input: body }, call);
  }

  @Post('lp-report')
  @HttpCode(201)
  @RateLimitPolicy('propose-minute')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Stage the distribution of a draft LP report, or of a new report (period and narrative)' })
  @Returns(ProposalDto, { status: 201, description: STAGED })
  lpReport(
    @CurrentPrincipal() p: Principal,
    @Body() body: LpReportProposalDto,
    @CurrentCall() call: CallContext,
  ): Promise<ProposalDto> {
    return this.stage(p, { kind: 'lp-report', input: body }, call);
  }

  @Post(':id/withdraw')
  @HttpCode(200)
  @RateLimitPolicy('propose-minute')
  @ApiOperation({ summary: 'Withdraw your own pending proposal: it will not be approved or rejected' })
  @ApiExtension(DETAILS, WITHDRAW_DETAILS)
  @Returns(ProposalDto)
  withdraw(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuidParam('id')) id: string,
    @Body() body: WithdrawProposalDto,
  ): Promise<ProposalDto> {
    return this.proposals.withdraw(p, id, body?.note ?? null);
  }

  @Get()
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: "This fund's proposals, most recent first" })
  @ApiExtension(DETAILS, `${OWN_ONLY} Filter by status; keyset-paginated.`)
  @Returns(ProposalListDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: ProposalListQueryDto): Promise<ProposalListDto> {
    return this.proposals.list(p, q);
  }

  @Get(':id')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'One proposal of this fund: its payload, status and who proposed and decided it' })
  @ApiExtension(DETAILS, `${OWN_ONLY} Another person's proposal is then 404, as one that does not exist.`)
  @Returns(ProposalDto)
  get(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuidParam('id')) id: string,
    @NoQuery() _none: unknown,
  ): Promise<ProposalDto> {
    return this.proposals.get(p, id);
  }
}
