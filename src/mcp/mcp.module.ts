import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpCatalog } from './mcp.catalog';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';
import { ToolInvoker } from './tool-invoker';

@Module({
  imports: [DiscoveryModule],
  controllers: [McpController],
  providers: [McpCatalog, McpService, ToolInvoker],
  exports: [McpCatalog],
})
export class McpModule {}
