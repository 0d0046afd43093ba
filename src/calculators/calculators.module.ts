import { Module } from '@nestjs/common';
import { CalculatorsController } from './calculators.controller';

/** Stateless calculators: no providers, nothing stored; the engines are plain functions. */
@Module({ controllers: [CalculatorsController] })
export class CalculatorsModule {}
