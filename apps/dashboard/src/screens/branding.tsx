import { zodResolver } from '@hookform/resolvers/zod';
import * as SliderPrimitive from '@radix-ui/react-slider';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BRANDING_COPY_SOFT_LIMITS, BrandingChanges, BrandingConfiguration, BrandingMode } from '@gatehouse/contracts';
import { useEffect, useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { api, ApiError, type BrandingWithTag } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Card, PageHeader } from '../components/ui/card';
import { Field, GuardedFields, Input, Textarea } from '../components/ui/field';
import { ErrorMessage, Loading, Notice } from '../components/ui/states';
import { darker, HEX_COLOUR } from '../lib/colour';
import { hasFieldErrors, showFieldErrors } from '../lib/forms';
import { BrandingPreview } from './branding-preview';

/** Spec 8; typed against the contracts' constant, so a changed limit fails to compile here. */
const SOFT_LIMITS: typeof BRANDING_COPY_SOFT_LIMITS = {
  authHeading: 40,
  authDescription: 120,
  authRegisterHeading: 40,
  authRegisterDescription: 120,
  paywallHeading: 40,
  paywallDescription: 120,
  paywallCtaText: 24,
  softHeading: 40,
  softDescription: 120,
  softCtaText: 24,
  registrationHeading: 40,
  registrationDescription: 120,
  registrationCtaText: 24,
  newsletterHeading: 40,
  newsletterDescription: 120,
  newsletterCtaText: 24,
  dataHeading: 40,
  dataDescription: 120,
  dataCtaText: 24,
  meterNoticeText: 60,
  meterRegisterText: 40,
};
type CopyField = keyof typeof SOFT_LIMITS;

/** Spec 8: the slider spans 0–24 px. */
const RADIUS_PRESETS = [
  { label: 'None', px: 0 },
  { label: 'Small', px: 4 },
  { label: 'Medium', px: 8 },
  { label: 'Large', px: 16 },
  { label: 'Full', px: 24 },
] as const;

const MODES: Array<{ value: BrandingMode; label: string; help: string }> = [
  { value: 'generic', label: 'Generic', help: 'The default design: purple accent, system font, 8 px corners. Nothing below applies.' },
  { value: 'themed', label: 'Themed', help: 'Your colours, font, corners, logo and copy.' },
  { value: 'custom', label: 'Custom', help: 'Themed, plus your own CSS inside every component.' },
];

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
/** Empty means unset (saved as null). */
const emptyOr = (test: (value: string) => boolean, message: string) => z.string().refine((value) => value === '' || test(value), message);
const brandingSchema = z.object({
  brandingMode: z.enum(['generic', 'themed', 'custom']),
  brandColor: emptyOr((v) => HEX_COLOUR.test(v), 'A hex colour such as #0055aa.'),
  brandColorHover: emptyOr((v) => HEX_COLOUR.test(v), 'A hex colour such as #004488.'),
  logoUrl: emptyOr(isHttpUrl, 'An http(s) address of an SVG or PNG image.'),
  borderRadius: z.string(),
  fontFamily: z.string().max(200, 'At most 200 characters.'),
  authHeading: z.string(),
  authDescription: z.string(),
  authRegisterHeading: z.string(),
  authRegisterDescription: z.string(),
  paywallHeading: z.string(),
  paywallDescription: z.string(),
  paywallCtaText: z.string(),
  softHeading: z.string(),
  softDescription: z.string(),
  softCtaText: z.string(),
  registrationHeading: z.string(),
  registrationDescription: z.string(),
  registrationCtaText: z.string(),
  newsletterHeading: z.string(),
  newsletterDescription: z.string(),
  newsletterCtaText: z.string(),
  dataHeading: z.string(),
  dataDescription: z.string(),
  dataCtaText: z.string(),
  meterNoticeText: z.string(),
  meterRegisterText: z.string(),
  customCss: z.string().refine((css) => new TextEncoder().encode(css).length <= 20 * 1024, 'Custom CSS is limited to 20 KiB.'),
});
export type BrandingForm = z.infer<typeof brandingSchema>;

/** What generic mode ignores: changing one while generic switches to themed, so the change shows. */
const THEMED_FIELDS = new Set<string>([
  'brandColor',
  'brandColorHover',
  'logoUrl',
  'borderRadius',
  'fontFamily',
  'authHeading',
  'authDescription',
  'authRegisterHeading',
  'authRegisterDescription',
  'paywallHeading',
  'paywallDescription',
  'paywallCtaText',
  'softHeading',
  'softDescription',
  'softCtaText',
  'registrationHeading',
  'registrationDescription',
  'registrationCtaText',
  'newsletterHeading',
  'newsletterDescription',
  'newsletterCtaText',
  'dataHeading',
  'dataDescription',
  'dataCtaText',
  'meterNoticeText',
  'meterRegisterText',
]);

function toForm(configuration: BrandingConfiguration): BrandingForm {
  const form = {} as Record<string, string>;
  for (const [field, value] of Object.entries(configuration)) form[field] = value ?? '';
  return form as BrandingForm;
}

/** Empty fields clear (null); an unset hover colour is derived from the brand colour (spec 2.7). */
function toChanges(values: BrandingForm): BrandingChanges {
  const changes: Record<string, string | null> = {};
  for (const [field, value] of Object.entries(values)) changes[field] = value === '' ? null : value;
  if (!values.brandColorHover && values.brandColor) changes['brandColorHover'] = darker(values.brandColor);
  return changes as BrandingChanges;
}

export function BrandingScreen() {
  const branding = useQuery(queries.branding());
  return (
    <>
      <PageHeader
        title="Branding"
        description="How the sign-in forms and paywalls look on your site. The preview shows your unsaved changes; readers see them once you save."
      />
      {branding.isPending && <Loading what="branding" />}
      {branding.error && <ErrorMessage error={branding.error} onRetry={() => void branding.refetch()} />}
      {branding.data && <BrandingStudio loaded={branding.data} />}
    </>
  );
}

function BrandingStudio({ loaded }: { loaded: BrandingWithTag }) {
  const queryClient = useQueryClient();
  const [etag, setEtag] = useState(loaded.etag);
  const [saved, setSaved] = useState(false);
  const form = useForm<BrandingForm>({ resolver: zodResolver(brandingSchema), defaultValues: toForm(loaded.configuration) });
  const save = useMutation({
    mutationFn: (next: BrandingForm) => api.branding.save(toChanges(next), etag),
    onSuccess: (result) => {
      queryClient.setQueryData(queries.branding().queryKey, result);
      setSaved(true);
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const { reset: resetSave } = save;
  // A fresh read (after a save, or "Load their version") is what the next write must match.
  useEffect(() => {
    form.reset(toForm(loaded.configuration));
    setEtag(loaded.etag);
    resetSave();
  }, [loaded, form, resetSave]);
  const [switchedToThemed, setSwitchedToThemed] = useState(false);
  useEffect(() => {
    const watching = form.watch((next, { name }) => {
      if (!name || !THEMED_FIELDS.has(name) || next.brandingMode !== 'generic') return;
      form.setValue('brandingMode', 'themed', { shouldDirty: true });
      setSwitchedToThemed(true);
    });
    return () => watching.unsubscribe();
  }, [form]);
  const values = form.watch();
  const conflict = save.error instanceof ApiError && save.error.code === 'precondition_failed';
  const mode = values.brandingMode;
  const themed = mode !== 'generic';

  return (
    <form
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
      onSubmit={form.handleSubmit((next) => {
        setSaved(false);
        save.mutate(next);
      })}
      noValidate
    >
      <GuardedFields requires="edit" className="space-y-4">
        <Card>
          <fieldset>
            <legend className="text-base font-semibold">Mode</legend>
            <div className="mt-3 space-y-2">
              {MODES.map((option) => (
                <label key={option.value} className="flex items-start gap-2 text-sm">
                  <input type="radio" value={option.value} className="mt-1 accent-brand" {...form.register('brandingMode')} />
                  <span>
                    <span className="font-medium">{option.label}</span> — {option.help}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          {!themed && <p className="mt-3 text-sm text-slate-700">The settings below are kept but not applied while the mode is generic; changing one switches to themed.</p>}
          {switchedToThemed && mode === 'themed' && (
            <p role="status" className="mt-3 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900">
              Switched to themed: generic mode ignores your colours, font, corners, logo and copy. Choose Generic again to keep the built-in look.
            </p>
          )}
        </Card>

        <Card className="space-y-4">
          <h2 className="text-base font-semibold">Colours</h2>
          <ColourField form={form} name="brandColor" label="Brand colour" hint="Buttons and links." />
          <ColourField
            form={form}
            name="brandColorHover"
            label="Hover colour"
            hint={values.brandColor && HEX_COLOUR.test(values.brandColor) && !values.brandColorHover ? `Left empty: ${darker(values.brandColor)}, 10 % darker.` : 'Left empty, it is derived from the brand colour.'}
          />
        </Card>

        <Card className="space-y-4">
          <h2 className="text-base font-semibold">Font and corners</h2>
          <Field label="Font family" hint="A CSS font-family value, e.g. Georgia, serif. Empty: the system font." error={form.formState.errors.fontFamily?.message}>
            {(control) => <Input {...control} {...form.register('fontFamily')} />}
          </Field>
          <Controller
            control={form.control}
            name="borderRadius"
            render={({ field }) => {
              const px = field.value === '' ? 8 : Number(field.value);
              return (
                <div className="space-y-2">
                  <div className="flex items-center justify-between">
                    <span id="radius-label" className="text-sm font-medium">Corner radius</span>
                    <span className="text-sm text-slate-700">{field.value === '' ? 'Default (8 px)' : `${px} px`}</span>
                  </div>
                  <SliderPrimitive.Root
                    className="relative flex h-11 w-full touch-none select-none items-center sm:h-5"
                    min={0}
                    max={24}
                    step={1}
                    value={[px]}
                    onValueChange={([next]) => field.onChange(String(next))}
                  >
                    <SliderPrimitive.Track className="relative h-1 grow rounded-full bg-slate-200">
                      <SliderPrimitive.Range className="absolute h-full rounded-full bg-brand" />
                    </SliderPrimitive.Track>
                    <SliderPrimitive.Thumb aria-labelledby="radius-label" className="flex h-11 w-11 items-center justify-center rounded-full sm:h-5 sm:w-5">
                      <span className="block h-5 w-5 rounded-full border-2 border-brand bg-white shadow" />
                    </SliderPrimitive.Thumb>
                  </SliderPrimitive.Root>
                  <div className="flex flex-wrap gap-2" role="group" aria-label="Radius presets">
                    {RADIUS_PRESETS.map((preset) => (
                      <Button key={preset.label} size="sm" variant={px === preset.px && field.value !== '' ? 'primary' : 'secondary'} onClick={() => field.onChange(String(preset.px))}>
                        {preset.label}
                      </Button>
                    ))}
                  </div>
                </div>
              );
            }}
          />
        </Card>

        <Card className="space-y-4">
          <h2 className="text-base font-semibold">Logo</h2>
          <Field label="Logo URL" hint="An SVG or PNG image." error={form.formState.errors.logoUrl?.message}>
            {(control) => <Input type="url" placeholder="https://example.com/logo.svg" {...control} {...form.register('logoUrl')} />}
          </Field>
        </Card>

        <Card className="space-y-4">
          <h2 className="text-base font-semibold">Copy</h2>
          <p className="text-xs text-slate-600">Advised lengths are shown as you type; longer text is allowed but may wrap or be cut on small screens.</p>
          <CopyInput form={form} name="authHeading" label="Sign-in heading" />
          <CopyInput form={form} name="authDescription" label="Sign-in description" multiline />
          <CopyInput form={form} name="authRegisterHeading" label="Create-account heading" />
          <CopyInput form={form} name="authRegisterDescription" label="Create-account description" multiline />
          <CopyInput form={form} name="paywallHeading" label="Paywall heading" hint="Subscription walls (hard and metered)." />
          <CopyInput form={form} name="paywallDescription" label="Paywall description" multiline />
          <CopyInput form={form} name="paywallCtaText" label="Paywall button text" />
        </Card>

        <Card className="space-y-4">
          <h2 className="text-base font-semibold">Copy per wall type</h2>
          <p className="text-xs text-slate-600">
            The paywall copy above is for subscription walls (hard and metered). Each other type has its own, so a newsletter wall never asks for a subscription; empty fields show the
            default text in the reader&apos;s language.
          </p>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Soft paywall</legend>
            <CopyInput form={form} name="softHeading" label="Soft: heading" />
            <CopyInput form={form} name="softDescription" label="Soft: description" multiline />
            <CopyInput form={form} name="softCtaText" label="Soft: button text" />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Registration wall</legend>
            <CopyInput form={form} name="registrationHeading" label="Registration: heading" />
            <CopyInput form={form} name="registrationDescription" label="Registration: description" multiline />
            <CopyInput form={form} name="registrationCtaText" label="Registration: button text" />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Newsletter wall</legend>
            <CopyInput form={form} name="newsletterHeading" label="Newsletter: heading" />
            <CopyInput form={form} name="newsletterDescription" label="Newsletter: description" multiline />
            <CopyInput form={form} name="newsletterCtaText" label="Newsletter: button text" />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Data wall</legend>
            <CopyInput form={form} name="dataHeading" label="Data wall: heading" />
            <CopyInput form={form} name="dataDescription" label="Data wall: description" multiline />
            <CopyInput form={form} name="dataCtaText" label="Data wall: button text" />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Meter notice</legend>
            <CopyInput form={form} name="meterNoticeText" label="Meter notice text" hint="{remaining} is the number of free articles left, {limit} the allowance." />
            <CopyInput form={form} name="meterRegisterText" label="Meter notice link text" />
          </fieldset>
        </Card>

        <Card className="space-y-4">
          <h2 className="text-base font-semibold">Custom CSS</h2>
          <Field label="CSS inside every component" hint={mode === 'custom' ? 'Applied in custom mode; at most 20 KiB.' : 'Kept, but applied only in custom mode.'} error={form.formState.errors.customCss?.message}>
            {(control) => <Textarea rows={6} className="font-mono text-xs" {...control} {...form.register('customCss')} />}
          </Field>
        </Card>
      </GuardedFields>

      {/* Saving comes first in the column that stays in view: the preview under it may be taller than the window. */}
      <div className="space-y-4 lg:sticky lg:top-4 lg:self-start">
        <div className="flex flex-wrap gap-2">
          <Button requires="edit" type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save branding'}</Button>
          <Button variant="secondary" disabled={!form.formState.isDirty} onClick={() => form.reset()}>
            Discard changes
          </Button>
        </div>
        {saved && !form.formState.isDirty && <Notice>Branding saved. Readers see it within a minute.</Notice>}
        {conflict ? (
          <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            <p>{(save.error as ApiError).problem.detail}</p>
            <Button size="sm" variant="secondary" onClick={() => void queryClient.invalidateQueries({ queryKey: keys.branding.all })}>
              Load their version
            </Button>
          </div>
        ) : (
          save.error && !hasFieldErrors(save.error) && <ErrorMessage error={save.error} />
        )}
        <BrandingPreview values={values} />
      </div>
    </form>
  );
}

function ColourField({ form, name, label, hint }: { form: UseFormReturn<BrandingForm>; name: 'brandColor' | 'brandColorHover'; label: string; hint: string }) {
  const value = form.watch(name);
  return (
    <Field label={label} hint={hint} error={form.formState.errors[name]?.message}>
      {(control) => (
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label={`${label} picker`}
            className="h-11 w-14 shrink-0 cursor-pointer rounded border border-slate-300 sm:h-9 sm:w-12"
            value={HEX_COLOUR.test(value) && value.length === 7 ? value : '#6c5ce7'}
            onChange={(event) => form.setValue(name, event.target.value, { shouldDirty: true, shouldValidate: true })}
          />
          <Input placeholder="#6C5CE7" className="font-mono" {...control} {...form.register(name)} />
        </div>
      )}
    </Field>
  );
}

function CopyInput({ form, name, label, multiline, hint }: { form: UseFormReturn<BrandingForm>; name: CopyField; label: string; multiline?: boolean; hint?: string }) {
  const length = [...form.watch(name)].length;
  const limit = SOFT_LIMITS[name];
  const over = length > limit;
  return (
    <Field
      label={label}
      hint={
        <span className={over ? 'font-medium text-amber-800' : undefined} aria-live="polite">
          {hint ? `${hint} ` : ''}
          {length} / {limit} characters{over ? ` — ${length - limit} over the advised length (allowed)` : ''}
        </span>
      }
    >
      {(control) => (multiline ? <Textarea rows={2} {...control} {...form.register(name)} /> : <Input {...control} {...form.register(name)} />)}
    </Field>
  );
}
