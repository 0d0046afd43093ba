import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { MeDto } from './dto/key.dto';
import { meView } from './key-views';
import { NoQuery } from '../common/validation/parameterless';

@ApiTags('account')
@Controller('api/v1/me')
export class MeController {
  @Get()
  @RequiresScopes()
  @SessionAccess()
  @RateLimitPolicy('fund-minute')
  @ApiOperation({
    summary: 'The calling key (or, with a console session, the signed-in person): scopes, fund, plan, account, dates',
  })
  @Returns(MeDto)
  me(@CurrentPrincipal() principal: Principal, @NoQuery() _none: unknown): MeDto {
    return meView(principal);
  }
}
