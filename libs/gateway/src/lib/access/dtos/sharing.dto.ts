import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ShareLink, ShareSettings, ShareSettingsChanges } from '@gatehouse/contracts';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class CreateShareLinkDto {
  @ApiProperty({
    example: 'https://news.example.com/premium/story',
    description: "The page to share: absolute http(s), on a domain of the publication. The link opens this page (host and path as the access check reads them) and no other.",
  })
  @IsString()
  @MaxLength(2048)
  url: string;
}

export class ShareLinkDto implements ShareLink {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'https://news.example.com/premium/story?gh_share=3q2-…', description: 'The page URL with `gh_share=<token>`: what the subscriber sends.' })
  url: string;
  @ApiProperty({ description: 'Shown once; only its hash is kept.' }) token: string;
  @ApiProperty({ description: 'How many reads the link grants.' }) maxOpens: number;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ description: 'Links the subscriber may still create this calendar month (UTC).' }) remainingThisMonth: number;
}

export class UpdateShareSettingsDto implements ShareSettingsChanges {
  @ApiPropertyOptional({ description: 'Whether subscribers may create share links.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'Reads one link grants.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  opensPerLink?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 8760, description: 'Hours a link works after its creation.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(8760)
  linkLifetimeHours?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'Links a subscriber may create per calendar month (UTC).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  monthlyAllowance?: number;
}

export class ShareSettingsDto implements ShareSettings {
  @ApiProperty({ description: 'Whether subscribers may create share links.' }) enabled: boolean;
  @ApiProperty({ example: 5, description: 'Reads one link grants.' }) opensPerLink: number;
  @ApiProperty({ example: 168, description: 'Hours a link works after its creation.' }) linkLifetimeHours: number;
  @ApiProperty({ example: 10, description: 'Links a subscriber may create per calendar month (UTC).' }) monthlyAllowance: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null until first changed (the defaults apply).' }) updatedAt: string | null;
}
