import { Module } from '@nestjs/common';
import { McpCatalog } from './mcp.catalog';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';
import { RouteInvoker } from './route-invoker';

@Module({
  controllers: [McpController],
  providers: [McpCatalog, McpService, RouteInvoker],
  exports: [McpCatalog, RouteInvoker],
})
export class McpModule {}
