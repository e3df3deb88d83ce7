import { Injectable } from '@nestjs/common';
import { checkedPageOf, isSubscriber, type PageAddress } from '@gatehouse/access-decisions';
import { Events, SHARE_TOKEN_PARAMETER, type CreateShareLinkRequest, type ShareCounts, type ShareLink } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock } from '@gatehouse/platform';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessConfig } from '../access.config';
import { SubscribersService } from '../subscribers/subscribers.service';
import { shareSettingsOf } from './share-settings.service';

const HOUR_MS = 3600 * 1000;
const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The start of the calendar month in UTC that `now` falls in, and of the next one. */
function monthOf(now: Date): { start: Date; next: Date } {
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), next: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** The reader who opens a shared page, as the check knows them. */
export interface ShareOpener {
  visitorId: string | null;
  customerId: string | null;
}

/**
 * Shared articles (issue #25 item 3, docs/access.md#shared-articles): a subscriber's link to one
 * page, which opens that page (host and path as the check reads them, nothing else) for whoever
 * holds it, a number of times within a lifetime staff set, and at most a monthly allowance of
 * links per subscriber. Only the token's SHA-256 is kept.
 */
@Injectable()
export class ShareLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AccessConfig,
    private readonly subscribers: SubscribersService,
    private readonly outbox: Outbox,
  ) {}

  async create(request: CreateShareLinkRequest): Promise<ShareLink> {
    const { publicationId, customerId } = request;
    // The page a link is for, refused as a check refuses it.
    const page = checkedPageOf(request.url, request.domains);
    const now = this.clock.now();
    const settings = await shareSettingsOf(this.dataSource, publicationId);
    if (!settings.enabled) throw new AppError('sharing_disabled', 'This publication does not offer share links.');
    const entitlements = await this.subscribers.entitlementsOf(publicationId, customerId);
    if (!isSubscriber(entitlements, now, this.config.PAST_DUE_GRACE_DAYS)) {
      throw new AppError('share_not_subscriber', 'Only subscribers can share articles.');
    }
    const month = monthOf(now);
    const token = randomBytes(24).toString('base64url');
    const url = new URL(request.url);
    url.hash = '';
    url.searchParams.delete(SHARE_TOKEN_PARAMETER);
    url.searchParams.set(SHARE_TOKEN_PARAMETER, token);
    const link = { id: randomUUID(), url: url.toString(), maxOpens: settings.opensPerLink, expiresAt: new Date(now.getTime() + settings.linkLifetimeHours * HOUR_MS) };
    const used = await this.dataSource.transaction(async (manager) => {
      // One sharer's links are created one at a time, so two at the last one of the month cannot both get it.
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('share-links:' || $1 || ':' || $2))", [publicationId, customerId]);
      const [{ count }] = await manager.query(
        'SELECT count(*)::int AS count FROM share_links WHERE publication_id = $1 AND customer_id = $2 AND created_at >= $3',
        [publicationId, customerId, month.start],
      );
      if (count >= settings.monthlyAllowance) {
        throw AppError.retryLater(
          'share_allowance_exceeded',
          `You have shared ${settings.monthlyAllowance} articles this month, as many as a month allows; more from ${month.next.toISOString()}.`,
          (month.next.getTime() - now.getTime()) / 1000,
        );
      }
      await manager.query(
        `INSERT INTO share_links (id, publication_id, customer_id, first_name, token_hash, page_key, url, max_opens, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [link.id, publicationId, customerId, firstNameOf(request.firstName), hashOf(token), page.key, link.url, link.maxOpens, now, link.expiresAt],
      );
      await this.outbox.add(
        manager,
        Events.ShareCreated,
        { shareLinkId: link.id, customerId, url: link.url.replace(token, '…'), maxOpens: link.maxOpens, expiresAt: link.expiresAt.toISOString() },
        publicationId,
      );
      return count + 1;
    });
    return { ...link, token, expiresAt: link.expiresAt.toISOString(), remainingThisMonth: Math.max(settings.monthlyAllowance - used, 0) };
  }

  /**
   * Spends one open of the link of this token when it is the link's page (host and path), before
   * its end and with opens left; the sharer's first name then. One statement, so concurrent
   * opens of the last one cannot both get it.
   */
  async open(publicationId: string, token: string, page: PageAddress, opener: ShareOpener, now: Date): Promise<{ firstName: string } | null> {
    return this.dataSource.transaction(async (manager) => {
      // An UPDATE answers [rows, count].
      const [[row]] = await manager.query(
        `UPDATE share_links SET opens = opens + 1
          WHERE token_hash = $1 AND publication_id = $2 AND page_key = $3 AND expires_at > $4 AND opens < max_opens
          RETURNING id, customer_id, first_name, url, opens, max_opens`,
        [hashOf(token), publicationId, page.key, now],
      );
      if (!row) return null;
      await manager.query('INSERT INTO share_opens (share_link_id, publication_id, opened_at) VALUES ($1, $2, $3)', [row.id, publicationId, now]);
      await this.outbox.add(
        manager,
        Events.ShareOpened,
        {
          shareLinkId: row.id,
          customerId: row.customer_id,
          url: String(row.url).replace(/([?&]gh_share=)[^&#]*/, '$1…'),
          visitorId: opener.visitorId,
          readerCustomerId: opener.customerId,
          opens: row.opens,
          maxOpens: row.max_opens,
          occurredAt: now.toISOString(),
        },
        publicationId,
      );
      return { firstName: row.first_name };
    });
  }

  /**
   * A conversion (`paywall_converted`) sent from a page whose URL carries a share link's token:
   * counted for the link when the token is one of the publication's, in the caller's transaction.
   */
  async recordConversion(manager: EntityManager, publicationId: string, pageUrl: string, at: Date): Promise<void> {
    const token = tokenInUrl(pageUrl);
    if (!token) return;
    await manager.query(
      `INSERT INTO share_conversions (share_link_id, publication_id, converted_at)
       SELECT id, publication_id, $3 FROM share_links WHERE token_hash = $1 AND publication_id = $2`,
      [hashOf(token), publicationId, at],
    );
  }

  /** Links created, opens granted and conversions in [from, to). */
  async counts(publicationId: string, from: Date, to: Date): Promise<ShareCounts> {
    const [row] = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM share_links WHERE publication_id = $1 AND created_at >= $2 AND created_at < $3) AS "linksCreated",
              (SELECT count(*)::int FROM share_opens WHERE publication_id = $1 AND opened_at >= $2 AND opened_at < $3) AS opens,
              (SELECT count(*)::int FROM share_conversions WHERE publication_id = $1 AND converted_at >= $2 AND converted_at < $3) AS conversions`,
      [publicationId, from, to],
    );
    return { linksCreated: row.linksCreated, opens: row.opens, conversions: row.conversions };
  }
}

function tokenInUrl(url: string): string | null {
  try {
    const token = new URL(url).searchParams.get(SHARE_TOKEN_PARAMETER);
    return token && token.length <= 128 ? token : null;
  } catch {
    return null;
  }
}

/** The first word of the name, at most 50 characters; "A subscriber" for a blank one. */
function firstNameOf(name: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first.slice(0, 50) || 'A subscriber';
}
