import { parsePaywallConfig } from '@gatehouse/contracts/paywall-config';
import { checkDefinition, definitionOfDraft, definitionWithChanges } from '../paywall-definition';

const fieldsOf = (errors: Array<{ field: string }>) => errors.map((e) => e.field);

describe('paywall config by type', () => {
  it('takes {limit, period} for a metered paywall', () => {
    expect(parsePaywallConfig('metered', { limit: 3, period: 'week' })).toEqual({ config: { limit: 3, period: 'week' }, errors: [] });
    expect(fieldsOf(parsePaywallConfig('metered', {}).errors)).toEqual(['config.limit', 'config.period']);
    expect(fieldsOf(parsePaywallConfig('metered', { limit: 0, period: 'year' }).errors)).toEqual(['config.limit', 'config.period']);
    expect(fieldsOf(parsePaywallConfig('metered', { limit: 2.5, period: 'day' }).errors)).toEqual(['config.limit']);
    expect(fieldsOf(parsePaywallConfig('metered', { limit: 10_001, period: 'day' }).errors)).toEqual(['config.limit']);
    expect(fieldsOf(parsePaywallConfig('metered', { limit: 3, period: 'day', extra: 1 }).errors)).toEqual(['config.extra']);
  });

  it('takes {fields} for a data wall, each field named once', () => {
    const fields = [
      { name: 'email', label: 'Email', type: 'email', required: true },
      { name: 'company', label: 'Company', type: 'text' },
    ];
    const { config, errors } = parsePaywallConfig('data', { fields });
    expect(errors).toEqual([]);
    expect(config).toEqual({ fields: [fields[0], { ...fields[1], required: false }] });

    const bad = parsePaywallConfig('data', {
      fields: [{ name: '1st', label: '', type: 'select', required: 'yes' }, { name: 'x', label: 'X', type: 'text', colour: 'red' }, { name: 'x', label: 'Again', type: 'text' }, 'oops'],
    });
    expect(fieldsOf(bad.errors)).toEqual([
      'config.fields[0].name',
      'config.fields[0].label',
      'config.fields[0].type',
      'config.fields[0].required',
      'config.fields[1].colour',
      'config.fields[2].name',
      'config.fields[3]',
    ]);
    expect(fieldsOf(parsePaywallConfig('data', { fields: [] }).errors)).toEqual(['config.fields']);
  });

  it('takes no settings for the other types', () => {
    for (const type of ['hard', 'soft', 'registration', 'newsletter'] as const) {
      expect(parsePaywallConfig(type, {})).toEqual({ config: {}, errors: [] });
      expect(parsePaywallConfig(type, { limit: 3 }).errors).toEqual([{ field: 'config.limit', message: `is not a setting of ${type} paywalls` }]);
    }
    expect(fieldsOf(parsePaywallConfig('hard', [1]).errors)).toEqual(['config']);
  });

  it('lets a registration wall require a verified email', () => {
    expect(parsePaywallConfig('registration', { requireVerifiedEmail: true })).toEqual({ config: { requireVerifiedEmail: true }, errors: [] });
    expect(parsePaywallConfig('registration', { requireVerifiedEmail: 'yes' }).errors).toEqual([
      { field: 'config.requireVerifiedEmail', message: 'must be true or false' },
    ]);
    expect(parsePaywallConfig('hard', { requireVerifiedEmail: true }).errors).toEqual([
      { field: 'config.requireVerifiedEmail', message: 'is not a setting of hard paywalls' },
    ]);
  });

  it('names bad globs by their place, and starts a changed type from an empty config', () => {
    const draft = definitionOfDraft({ name: 'P', type: 'metered', config: { limit: 3, period: 'day' }, match: { include: ['/ok/**', 'bad'], exclude: ['/x**'] } });
    expect(fieldsOf(checkDefinition(draft).errors)).toEqual(['match.include[1]', 'match.exclude[0]']);
    const hard = checkDefinition(definitionWithChanges(draft, { type: 'hard', match: { include: ['/**'] } }));
    expect(hard.errors).toEqual([]);
    expect(hard.definition).toMatchObject({ type: 'hard', config: {}, includeGlobs: ['/**'], excludeGlobs: [] });
    expect(fieldsOf(checkDefinition(definitionWithChanges(hard.definition, { type: 'metered' })).errors)).toEqual(['config.limit', 'config.period']);
  });
});
