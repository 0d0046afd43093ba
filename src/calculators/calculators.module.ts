import { Module } from '@nestjs/common';
import { CalculatorPool } from './calculator-pool';
import { CalculatorsController } from './calculators.controller';

/** Stateless calculators: nothing stored; the engines are plain functions, large inputs run on a worker pool. */
@Module({ controllers: [CalculatorsController], providers: [CalculatorPool], exports: [CalculatorPool] })
export class CalculatorsModule {}
