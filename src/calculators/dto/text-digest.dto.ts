import { ApiProperty } from '@nestjs/swagger';

/** How a long text input is echoed in `assumptions`: its size, not its bytes. */
export class TextDigestDto {
  @ApiProperty({ description: 'The documented default text was used.' }) isDefault: boolean;
  @ApiProperty({ description: 'UTF-8 size.' }) bytes: number;
  @ApiProperty({ required: false, description: 'CSV: data rows read.' }) rows?: number;
  @ApiProperty({ required: false, description: 'Free text: characters.' }) characters?: number;
}
