import { JetStreamEventTransport, type EventSubscription } from '@gatehouse/bus';
import { AdminRequests, InternalEvents, type ApiKeyRevokedData, type CreatedSession, type EventEnvelope } from '@gatehouse/contracts';
import { eventually, testNatsUrl } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { AdminHarness, BOOTSTRAP, sha256 } from '../../__tests__/admin-harness';

jest.setTimeout(30_000);

describe('API keys', () => {
  const harness = new AdminHarness();
  const revocations: Array<EventEnvelope<ApiKeyRevokedData>> = [];
  let events: JetStreamEventTransport;
  let subscription: EventSubscription;
  let admin: CreatedSession;
  let publicationId: string;

  const createPair = (name: string, publication = publicationId) =>
    harness.request(AdminRequests.CreateApiKeyPair, { publicationId: publication, name });
  const resolve = (key: string) => harness.request(AdminRequests.ResolveApiKey, { keyHash: sha256(key) });
  const list = (publication = publicationId) => harness.request(AdminRequests.ListApiKeys, { publicationId: publication });
  const keyOf = async (key: string) => (await list()).find((view) => key.startsWith(view.prefix))!;

  beforeAll(async () => {
    await harness.start();
    admin = await harness.request(AdminRequests.CreateSession, { email: BOOTSTRAP.email, password: BOOTSTRAP.password });
    publicationId = admin.publication.id;
    events = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, harness.namespace);
    subscription = await events.consume('test-reader', [InternalEvents.ApiKeyRevoked.name], async (envelope) => {
      revocations.push(envelope as EventEnvelope<ApiKeyRevokedData>);
    });
  });

  afterAll(async () => {
    await subscription?.stop();
    await events?.close();
    await harness.close();
  });

  it('creates a pair of a pk_ and an sk_ key with 256 random bits each', async () => {
    const pair = await createPair('website');
    expect(pair).toEqual({
      name: 'website',
      publishableKey: expect.stringMatching(/^pk_[A-Za-z0-9_-]{43}$/),
      secretKey: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
    });
  });

  it('resolves each key to its publication, kind and the publication domains', async () => {
    const pair = await createPair('resolving');
    await expect(resolve(pair.publishableKey)).resolves.toEqual({
      keyId: expect.any(String),
      kind: 'publishable',
      publicationId,
      domains: ['bugle.example', '*.bugle.example'],
      selfRegistration: true,
    });
    await expect(resolve(pair.secretKey)).resolves.toMatchObject({ kind: 'secret', publicationId });
    await expect(resolve('pk_not-a-key')).resolves.toBeNull();
  });

  it('stores secret keys only as hashes: no secret key appears anywhere in the table; the public publishable key is kept whole', async () => {
    const pair = await createPair('stored');
    const rows = await harness.query<{ key_hash: string; publishable_key: string | null }>('SELECT * FROM api_keys');
    const table = JSON.stringify(rows);
    expect(table).not.toContain(pair.secretKey.slice(3));
    expect(rows.map((row) => row.publishable_key)).toContain(pair.publishableKey);
    for (const key of [pair.publishableKey, pair.secretKey]) expect(rows.map((row) => row.key_hash)).toContain(sha256(key));
  });

  it('refuses a name used before in the publication, also once its pair is revoked, with 409 conflict', async () => {
    await createPair('mobile');
    await expect(createPair('mobile')).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await harness.request(AdminRequests.RevokeApiKeyPair, { publicationId, name: 'mobile' });
    await expect(createPair('mobile')).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(createPair('mobile', await otherPublicationId())).resolves.toMatchObject({ name: 'mobile' });
  });

  it('refuses a blank name', async () => {
    await expect(createPair('  ')).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      problem: { errors: [{ field: 'name', message: 'must not be empty' }] },
    });
  });

  it('revokes one key of a pair and leaves the other working', async () => {
    const pair = await createPair('one-revoked');
    const publishable = await keyOf(pair.publishableKey);
    const revoked = await harness.request(AdminRequests.RevokeApiKey, { publicationId, keyId: publishable.id });
    expect(revoked).toEqual({ keyHashes: [sha256(pair.publishableKey)] });
    await expect(resolve(pair.publishableKey)).resolves.toBeNull();
    await expect(resolve(pair.secretKey)).resolves.toMatchObject({ kind: 'secret' });
  });

  it('revokes both keys of a pair, and again without complaint', async () => {
    const pair = await createPair('both-revoked');
    const hashes = [sha256(pair.publishableKey), sha256(pair.secretKey)].sort();
    const revoked = await harness.request(AdminRequests.RevokeApiKeyPair, { publicationId, name: 'both-revoked' });
    expect(revoked.keyHashes.sort()).toEqual(hashes);
    await expect(resolve(pair.publishableKey)).resolves.toBeNull();
    await expect(resolve(pair.secretKey)).resolves.toBeNull();
    const again = await harness.request(AdminRequests.RevokeApiKeyPair, { publicationId, name: 'both-revoked' });
    expect(again.keyHashes.sort()).toEqual(hashes);
  });

  it('announces a revocation as internal.api_key.revoked with the key ids and hashes', async () => {
    const pair = await createPair('announced');
    const keyIds = [(await keyOf(pair.publishableKey)).id, (await keyOf(pair.secretKey)).id].sort();
    const { keyHashes } = await harness.request(AdminRequests.RevokeApiKeyPair, { publicationId, name: 'announced' });
    const event = await eventually(() => revocations.find((e) => e.data.keyHashes.includes(sha256(pair.secretKey))));
    expect(event).toMatchObject({ name: 'internal.api_key.revoked', publicationId });
    expect(event.data.keyHashes.sort()).toEqual(keyHashes.sort());
    expect(event.data.keyIds.sort()).toEqual(keyIds);
  });

  it('lists keys newest first with their 12-character prefix, the publishable key itself, last use and revocation', async () => {
    harness.clock.advance(60_000);
    const pair = await createPair('listed');
    const [first, second] = await list();
    expect(first).toEqual({
      id: expect.any(String),
      name: 'listed',
      kind: 'publishable',
      prefix: pair.publishableKey.slice(0, 12),
      publishableKey: pair.publishableKey,
      createdAt: harness.clock.now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(second).toMatchObject({ name: 'listed', kind: 'secret', prefix: pair.secretKey.slice(0, 12), publishableKey: null });
    const stored = await harness.query('SELECT kind, publishable_key FROM api_keys WHERE name = $1 ORDER BY kind', ['listed']);
    expect(stored).toEqual([
      { kind: 'publishable', publishable_key: pair.publishableKey },
      { kind: 'secret', publishable_key: null },
    ]);
    expect(first.prefix).toHaveLength(12);

    harness.clock.advance(5_000);
    const usedAt = harness.clock.now().toISOString();
    await resolve(pair.publishableKey);
    await eventually(async () => ((await keyOf(pair.publishableKey)).lastUsedAt === usedAt ? true : undefined));

    harness.clock.advance(5_000);
    await harness.request(AdminRequests.RevokeApiKey, { publicationId, keyId: first.id });
    expect(await keyOf(pair.publishableKey)).toMatchObject({ lastUsedAt: usedAt, revokedAt: harness.clock.now().toISOString() });
    expect(await keyOf(pair.secretKey)).toMatchObject({ lastUsedAt: null, revokedAt: null });
  });

  it('records the last use at most once a minute', async () => {
    const pair = await createPair('busy');
    const firstUse = harness.clock.now().toISOString();
    await resolve(pair.secretKey);
    await eventually(async () => ((await keyOf(pair.secretKey)).lastUsedAt === firstUse ? true : undefined));
    harness.clock.advance(30_000);
    await resolve(pair.secretKey);
    harness.clock.advance(31_000);
    const laterUse = harness.clock.now().toISOString();
    await resolve(pair.secretKey);
    await eventually(async () => ((await keyOf(pair.secretKey)).lastUsedAt === laterUse ? true : undefined));
  });

  it('answers 404 for keys and pairs of another publication, and for unknown ones', async () => {
    const theirs = await otherPublicationId();
    const pair = await createPair('foreign', theirs);
    const foreignKey = (await list(theirs)).find((key) => pair.secretKey.startsWith(key.prefix))!;
    const notFound = { status: 404, code: 'not_found' };
    await expect(harness.request(AdminRequests.RevokeApiKeyPair, { publicationId, name: 'foreign' })).rejects.toMatchObject(notFound);
    for (const keyId of [foreignKey.id, randomUUID(), 'not-an-id']) {
      await expect(harness.request(AdminRequests.RevokeApiKey, { publicationId, keyId })).rejects.toMatchObject(notFound);
    }
    await expect(resolve(pair.secretKey)).resolves.toMatchObject({ publicationId: theirs });
    expect((await list()).map((key) => key.name)).not.toContain('foreign');
  });

  let other: string | undefined;
  async function otherPublicationId(): Promise<string> {
    other ??= (await harness.request(AdminRequests.CreatePublication, { staffId: admin.staff.id, name: 'Other', domains: [] })).id;
    return other;
  }
});
