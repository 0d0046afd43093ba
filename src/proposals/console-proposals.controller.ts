import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DETAILS } from '../common/openapi/contract';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { uuidParam } from '../common/validation/uuid-param';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { ProposalDto, WithdrawProposalDto } from './dto/proposal.dto';
import { WITHDRAW_DETAILS } from './proposals.controller';
import { ProposalsService } from './proposals.service';

/**
 * The maker's actions in the console (a session, CSRF-checked): the fund routes stay key-only, so
 * withdrawing through a session has its own route, answered by the same service as the key route.
 */
@ApiTags('proposals')
@Controller('api/v1/console/proposals')
@RequiresScopes('fund:propose')
@SessionAccess({ only: true })
@RateLimitPolicy('fund-minute')
export class ConsoleProposalsController {
  constructor(private readonly proposals: ProposalsService) {}

  @Post(':id/withdraw')
  @HttpCode(200)
  @ApiOperation({ summary: 'Withdraw your own pending proposal in the console (session)' })
  @ApiExtension(
    DETAILS,
    `${WITHDRAW_DETAILS} The fund is the session's (X-Fundgate-Fund); an API key uses POST /api/v1/fund/proposals/{id}/withdraw.`,
  )
  @Returns(ProposalDto)
  withdraw(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuidParam('id')) id: string,
    @Body() body: WithdrawProposalDto,
  ): Promise<ProposalDto> {
    return this.proposals.withdraw(p, id, body?.note ?? null);
  }
}
