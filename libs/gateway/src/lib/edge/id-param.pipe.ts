import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '@gatehouse/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in a path that cannot exist is simply not found (decisions B2: never leak, never a 500). */
@Injectable()
export class IdParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw new AppError('not_found', 'No such resource.');
    return value.toLowerCase();
  }
}
