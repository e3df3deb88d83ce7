import { Module } from '@nestjs/common';
import { ReadersModule } from '../readers/readers.module';
import { AccessPersonalDataHandler } from './access-personal-data.handler';
import { AccessPersonalDataService } from './access-personal-data.service';

@Module({ imports: [ReadersModule], controllers: [AccessPersonalDataHandler], providers: [AccessPersonalDataService] })
export class PersonalDataModule {}
