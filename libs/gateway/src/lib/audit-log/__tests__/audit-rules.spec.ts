import { PassThrough } from 'node:stream';
import { changesOf } from '../audit-rules';

describe('what the audit log keeps of a body', () => {
  it('replaces every secret, at any depth, and keeps the rest', () => {
    expect(
      changesOf({
        name: 'Premium',
        password: 'hunter2-hunter2',
        processor: { secretKey: 'sk_live_x', webhookSecret: 'whsec_y', mode: 'live' },
        readers: [{ email: 'a@example.com', refreshToken: 'r' }],
        apiKey: null,
      }),
    ).toEqual({
      name: 'Premium',
      password: '[redacted]',
      processor: { secretKey: '[redacted]', webhookSecret: '[redacted]', mode: 'live' },
      readers: [{ email: 'a@example.com', refreshToken: '[redacted]' }],
      apiKey: null,
    });
  });

  it('cuts long text, keeps a large body as its fields, and nothing for no body', () => {
    expect(changesOf({ customCss: 'a'.repeat(1500) })).toEqual({ customCss: `${'a'.repeat(1000)}… (1500 characters)` });
    expect(changesOf({ domains: Array.from({ length: 400 }, (_, i) => `site-${i}.example`), name: 'Big' })).toEqual({
      omitted: expect.stringMatching(/^a body of \d+ characters$/),
      fields: ['domains', 'name'],
    });
    expect(changesOf(undefined)).toBeNull();
  });

  it('keeps a file sent as it is (an import upload, a stream with cycles) as "a file", never its rows', () => {
    const upload = new PassThrough();
    upload.end('email,name\nada@example.com,Ada\n');
    expect(changesOf(upload)).toEqual({ omitted: 'a file', fields: [] });
    expect(changesOf(Buffer.from('email\n'))).toEqual({ omitted: 'a file', fields: [] });
  });
});
