import { Module } from '@nestjs/common';
import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

/**
 * Data retention: the hourly sweep (worker and `all` roles) that bounds activity_log (old rows become
 * daily counts that /usage reads) and the webhook tables. The rules are in the service, the SQL in the
 * repository.
 */
@Module({ providers: [RetentionRepository, RetentionService] })
export class RetentionModule {}
