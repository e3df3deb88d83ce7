import { Readable } from 'node:stream';
import { IMPORT_BODY_LIMIT, recordsOf, rowOf, type FileRecord, type ImportFormat } from '../import-file';

const read = async (text: string | string[], format: ImportFormat = 'csv') => {
  const records: FileRecord[] = [];
  for await (const record of recordsOf(Readable.from(Array.isArray(text) ? text : [text]), format)) records.push(record);
  return records.map(rowOf);
};

describe('reading an import file', () => {
  it('numbers each CSV row by the line it starts on, across quoted line breaks, blank lines and chunk boundaries', async () => {
    const rows = await read(['email,name,product,interval,currency,amount\r\n\r\nada@exa', 'mple.com,"Lovelace, Ada\r\n(""the first"")",Digital,month,EUR,900\nbob@example.com,Bob,,,,\n']);
    expect(rows).toEqual([
      { line: 3, email: 'ada@example.com', name: 'Lovelace, Ada\n("the first")', plan: { product: 'Digital', interval: 'month', currency: 'eur', amount: 900 }, currentPeriodEnd: null, processorCustomerId: null, processorSubscriptionId: null },
      { line: 5, email: 'bob@example.com', name: 'Bob', plan: null, currentPeriodEnd: null, processorCustomerId: null, processorSubscriptionId: null },
    ]);
  });

  it('says why a row is bad, in words staff can act on', async () => {
    const rows = await read(
      [
        'email,name,product,interval,currency,amount,current_period_end,processor_customer_id,processor_subscription_id',
        'nope,X,,,,,,,',
        'a@example.com,,,,,,,,',
        'a@example.com,A,Digital,week,eur,900,,,',
        'a@example.com,A,Digital,month,eur,9.5,,,',
        'a@example.com,A,Digital,month,euro,900,,,',
        'a@example.com,A,,,,,2030-01-01,,',
        'a@example.com,A,Digital,month,eur,900,2030-01-01,,sub_1',
        'a@example.com,A,,,,,,acct_1,',
        'a@example.com,A,,,,,,,,extra',
        `a@example.com,"unclosed`,
      ].join('\n'),
    );
    expect(rows).toEqual([
      { line: 2, reason: 'email must be an email address of at most 254 characters' },
      { line: 3, reason: 'name must be 1 to 100 characters' },
      { line: 4, reason: 'interval must be one of month, year, lifetime' },
      { line: 5, reason: 'amount must be a whole number of minor units (cents)' },
      { line: 6, reason: 'currency must be a three-letter ISO 4217 code' },
      { line: 7, reason: 'current_period_end is the end of a manual grant: give it with a plan and without processor_subscription_id' },
      { line: 8, reason: 'current_period_end is the end of a manual grant: give it with a plan and without processor_subscription_id' },
      { line: 9, reason: 'processor_customer_id must be a processor id (cus_…)' },
      { line: 10, reason: '10 fields where the header has 9' },
      { line: 11, reason: 'a quoted field is not closed' },
    ]);
  });

  it('reads back a cell the export guarded against spreadsheet formulas', async () => {
    const [row] = await read(`email,name\na@example.com,"'=SUM(A1:A2)"\n`);
    expect(row).toMatchObject({ name: '=SUM(A1:A2)' });
  });

  it('refuses a header it cannot read, naming what is wrong', async () => {
    const refusal = (detail: string | RegExp) => ({ problem: { code: 'validation_failed', detail: typeof detail === 'string' ? detail : expect.stringMatching(detail) } });
    await expect(read('email,name,colour\n')).rejects.toMatchObject(refusal(/does not know: colour\. The columns are email, name, product/));
    await expect(read('email\n')).rejects.toMatchObject(refusal(/^The header lacks name\./));
    await expect(read('email,name,Email\n')).rejects.toMatchObject(refusal('The header names a column twice.'));
    await expect(read('')).rejects.toMatchObject(refusal('The file is empty: it needs a header line and rows.'));
    // A trailing comma leaves an empty column, which is no column at all.
    expect(await read('email,name,\na@example.com,A,\n')).toEqual([expect.objectContaining({ line: 2, email: 'a@example.com', name: 'A' })]);
  });

  it('reads JSON Lines keyed by the same columns', async () => {
    const rows = await read(['{"email":"a@example.com","name":"A","product":"Digital","interval":"year","currency":"usd","amount":9900}\n', '[1]\n{"email":"b@example.com","name":{"x":1}}\n'], 'jsonl');
    expect(rows).toEqual([
      { line: 1, email: 'a@example.com', name: 'A', plan: { product: 'Digital', interval: 'year', currency: 'usd', amount: 9900 }, currentPeriodEnd: null, processorCustomerId: null, processorSubscriptionId: null },
      { line: 2, reason: 'not a JSON object' },
      { line: 3, reason: 'name must be a string or a number' },
    ]);
  });

  it('stops reading past the size limit', async () => {
    const chunk = `a@example.com,${'x'.repeat(1024 * 1024)}\n`;
    const chunks = ['email,name\n', ...Array.from({ length: IMPORT_BODY_LIMIT / (1024 * 1024) + 1 }, () => chunk)];
    await expect(read(chunks)).rejects.toMatchObject({ problem: { code: 'payload_too_large', status: 413 } });
  });
});
