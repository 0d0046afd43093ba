import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import {
  ApproveProposalDto,
  ProposalDto,
  ProposalListDto,
  ProposalListQueryDto,
  RejectProposalDto,
} from './dto/proposal.dto';
import { ProposalsService } from './proposals.service';
import { uuidParam } from '../common/validation/uuid-param';

/** Manager review (scope proposals:review). The deciding account must differ from the proposing one. */

const uuid = uuidParam('id');

@ApiTags('admin: proposals')
@Controller('api/v1/admin/proposals')
@RequiresScopes('proposals:review')
@SessionAccess()
@RateLimitPolicy('fund-minute')
export class AdminProposalsController {
  constructor(private readonly proposals: ProposalsService) {}

  @Get()
  @ApiOperation({ summary: 'Proposals of this fund (status=pending for the review queue), most recent first' })
  @Returns(ProposalListDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: ProposalListQueryDto): Promise<ProposalListDto> {
    return this.proposals.list(p, q);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Approve: re-validate, execute in the books, record the decision and emit proposal.approved in one transaction',
  })
  @Returns(ProposalDto)
  approve(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Body() body: ApproveProposalDto,
  ): Promise<ProposalDto> {
    return this.proposals.approve(p, id, body?.note ?? null);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject with a reason; emits proposal.rejected' })
  @Returns(ProposalDto)
  reject(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Body() body: RejectProposalDto,
  ): Promise<ProposalDto> {
    return this.proposals.reject(p, id, body.reason);
  }
}
