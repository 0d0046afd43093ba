import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CalculatorsModule } from '../calculators/calculators.module';
import { FundExtras } from './fund-extras';
import { McpCatalog } from './mcp.catalog';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';
import { ToolInvoker } from './tool-invoker';

@Module({
  imports: [DiscoveryModule, CalculatorsModule], // the tool invoker sheds large calculator calls as REST does
  controllers: [McpController],
  providers: [McpCatalog, McpService, ToolInvoker, FundExtras],
  exports: [McpCatalog],
})
export class McpModule {}
