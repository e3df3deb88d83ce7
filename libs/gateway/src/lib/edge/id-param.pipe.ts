import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError, isUuid } from '@gatehouse/platform';

/** An id in a path that cannot exist is simply not found (decisions B2: never leak, never a 500). */
@Injectable()
export class IdParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw new AppError('not_found', 'No such resource.');
    return value.toLowerCase();
  }
}
