import { Injectable } from '@nestjs/common';
import { parsePageUrl, requirePublicationHost } from '@gatehouse/access-decisions';
import type { ReaderFacts, SegmentReader } from '@gatehouse/contracts';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../edge/principal';
import { GatewayConfig } from '../gateway.config';
import { visitorAttributesOf } from './access-check.controller';
import { EdgeCheckRecorder } from './edge-check-recorder.service';

/**
 * The reader a segment decides for away from an access check (an offer limited to one,
 * docs/billing.md), with the facts a check from this request would carry.
 */
@Injectable()
export class SegmentReaders {
  constructor(
    private readonly config: GatewayConfig,
    private readonly recorder: EdgeCheckRecorder,
  ) {}

  /**
   * The attributes as for a check (`visitorAttributesOf`), the page `url` refused as a check refuses
   * it (400 not a URL, 403 `url_not_in_publication`). A secret key's server speaks for a reader
   * whose request it is not: what it states wins, as staff's in a trial.
   */
  async readerOf(caller: Principal, customerId: string | null, stated: ReaderFacts | undefined, request: FastifyRequest, field = 'url'): Promise<SegmentReader> {
    const facts: ReaderFacts = stated ?? {};
    if (facts.url !== undefined) requirePublicationHost(parsePageUrl(facts.url, field), caller.apiKey?.domains ?? []);
    // A visit count read at access includes the checks this gateway answered before, as for a check sent there.
    await this.recorder.flush();
    const attributes = visitorAttributesOf(facts, request, this.config, caller.apiKey?.kind === 'secret');
    return { customerId, visitorId: facts.userId ?? null, url: facts.url ?? null, attributes };
  }
}
