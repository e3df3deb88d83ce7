import { Injectable } from '@nestjs/common';
import { DOMAIN_PROOF_FILE_PATH, DOMAIN_PROOF_TXT_PREFIX, type DomainProofView } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { promises as dns } from 'node:dns';
import { DataSource } from 'typeorm';
import { AdminConfig } from '../admin.config';
import { isLoopbackDomain, proofHostOf } from './domains';
import { Publication, type DomainProof } from './publication.entity';
import { PublicationsService } from './publications.service';

const LOOKUP_TIMEOUT_MS = 5_000;
/** A proof file holds a token or two, a line each: nothing longer is read. */
const MAX_FILE_BYTES = 1_024;

/**
 * Proof that a publication's owner controls a domain it claims, before account email links lead
 * there: its token in a DNS TXT record `_gatehouse.<domain>` or as the file
 * `https://<domain>/.well-known/gatehouse-verification.txt`. A wildcard claim is proven on its base domain.
 */
@Injectable()
export class DomainProofsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AdminConfig,
    private readonly publications: PublicationsService,
  ) {}

  async list(staffId: string, publicationId: string): Promise<DomainProofView[]> {
    const publication = await this.ownedPublication(staffId, publicationId);
    return publication.domains.map((domain) => proofView(domain, publication.domainProofs[domain]));
  }

  /** 404 for a domain the publication does not claim; 409 when neither the TXT record nor the file holds the token. */
  async verify(staffId: string, publicationId: string, rawDomain: string): Promise<DomainProofView> {
    const publication = await this.ownedPublication(staffId, publicationId);
    const domain = rawDomain.trim().toLowerCase();
    const proof = publication.domainProofs[domain];
    if (!publication.domains.includes(domain) || !proof) throw new AppError('not_found', 'The publication does not claim this domain.');
    if (isLoopbackDomain(domain) || proof.verifiedAt) return proofView(domain, proof);

    const host = proofHostOf(domain);
    if (!(await this.inDns(host, proof.token)) && !(await this.inFile(host, proof.token))) {
      throw new AppError(
        'conflict',
        `Neither a TXT record ${DOMAIN_PROOF_TXT_PREFIX}${host} nor the file https://${host}${DOMAIN_PROOF_FILE_PATH} holds this domain's token yet (DNS changes can take a while to be seen).`,
      );
    }
    const verifiedAt = this.clock.now().toISOString();
    // Only the token shown stays valid: a domain dropped and claimed again meanwhile has a new one.
    await this.dataSource.query(
      `UPDATE publications SET domain_proofs = jsonb_set(domain_proofs, ARRAY[$2::text, 'verifiedAt'], to_jsonb($3::text)) WHERE id = $1 AND domain_proofs -> $2 ->> 'token' = $4`,
      [publicationId, domain, verifiedAt, proof.token],
    );
    return proofView(domain, { token: proof.token, verifiedAt });
  }

  private async ownedPublication(staffId: string, publicationId: string): Promise<Publication> {
    const membership = await this.publications.requireMembership(staffId, publicationId);
    if (membership.role !== 'admin') throw new AppError('forbidden', 'Only an admin of the publication may prove its domains.');
    return this.dataSource.getRepository(Publication).findOneByOrFail({ id: publicationId });
  }

  private async inDns(host: string, token: string): Promise<boolean> {
    try {
      const records = await withTimeout(dns.resolveTxt(`${DOMAIN_PROOF_TXT_PREFIX}${host}`));
      return records.some((chunks) => chunks.join('').trim() === token);
    } catch {
      return false;
    }
  }

  /** Redirects are not followed and nothing of the answer is shown: the owner learns only whether the token was there. */
  private async inFile(host: string, token: string): Promise<boolean> {
    try {
      const response = await fetch(this.config.DOMAIN_PROOF_FILE_URL.replace('{host}', host), {
        redirect: 'manual',
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      });
      if (response.status !== 200 || !response.body) return false;
      let body = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        body += decoder.decode(chunk as Uint8Array, { stream: true });
        if (body.length > MAX_FILE_BYTES) break;
      }
      // One line per claim proven there: `news.example` and `*.news.example` share the file.
      return body.length <= MAX_FILE_BYTES && body.split(/\r?\n/).some((line) => line.trim() === token);
    } catch {
      return false;
    }
  }
}

function proofView(domain: string, proof: DomainProof | undefined): DomainProofView {
  const host = proofHostOf(domain);
  const loopback = isLoopbackDomain(domain);
  return {
    domain,
    token: proof?.token ?? '',
    txtRecord: `${DOMAIN_PROOF_TXT_PREFIX}${host}`,
    fileUrl: `https://${host}${DOMAIN_PROOF_FILE_PATH}`,
    verified: loopback || Boolean(proof?.verifiedAt),
    verifiedAt: proof?.verifiedAt ?? null,
  };
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('dns timeout')), LOOKUP_TIMEOUT_MS).unref())]);
}
