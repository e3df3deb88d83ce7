import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, ApiError } from '../api/client';
import { queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Field, Input } from '../components/ui/field';
import { ErrorMessage } from '../components/ui/states';
import { useDocumentTitle } from '../lib/document-title';

const signInSchema = z.object({
  email: z.email('Enter your email address.'),
  password: z.string().min(1, 'Enter your password.'),
});
type SignInValues = z.infer<typeof signInSchema>;

const route = getRouteApi('/sign-in');

/** Full path under the dashboard's base, for a return address the router gave without it or with it. */
function underDashboard(path: string): string {
  return path.startsWith('/dashboard') ? path : `/dashboard${path === '/' ? '/' : path}`;
}

export function SignIn() {
  const { redirect, expired } = route.useSearch();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { email: '', password: '' } });
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle('Sign in');
  useEffect(() => heading.current?.focus(), []);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await api.session.signIn(values);
      queryClient.clear();
      await queryClient.fetchQuery(queries.session());
      router.history.push(underDashboard(redirect ?? '/'));
    } catch (error) {
      setFailure(error);
      if (error instanceof ApiError) form.resetField('password', { keepError: false });
    }
  });

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-sm">
        <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold">
          Sign in to Gatehouse
        </h1>
        <p className="mt-1 text-sm text-slate-600">The dashboard for your publication’s staff.</p>
        {expired && (
          <div role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Your session has expired. Sign in again to continue where you were.
          </div>
        )}
        <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate>
          <Field label="Email" error={form.formState.errors.email?.message}>
            {(control) => <Input type="email" autoComplete="username" {...control} {...form.register('email')} />}
          </Field>
          <Field label="Password" error={form.formState.errors.password?.message}>
            {(control) => <Input type="password" autoComplete="current-password" {...control} {...form.register('password')} />}
          </Field>
          <ErrorMessage error={failure} />
          <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </Card>
    </main>
  );
}
