import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, ApiError } from '../api/client';
import { queries } from '../api/queries';
import { ROLE_LABELS } from '../api/session';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Field, Input } from '../components/ui/field';
import { ErrorMessage, Loading } from '../components/ui/states';
import { useDocumentTitle } from '../lib/document-title';

const acceptSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter your name.').max(100),
    password: z.string().min(8, 'At least 8 characters.').max(72, 'At most 72 characters.'),
    confirm: z.string(),
  })
  .refine((values) => values.password === values.confirm, { path: ['confirm'], message: 'The passwords differ.' });
type AcceptValues = z.infer<typeof acceptSchema>;

/** The invitation link carries its token in the fragment, which never reaches a server log. */
function tokenFromLocation(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

export function AcceptInvitation() {
  const [token] = useState(tokenFromLocation);
  const router = useRouter();
  const queryClient = useQueryClient();
  const invitation = useQuery({ ...queries.invitation(token), enabled: token !== '' });
  const session = useQuery(queries.session());
  const signedInAs = session.data?.staff.email;
  const [failure, setFailure] = useState<unknown>(null);
  useDocumentTitle('Join a publication');
  const form = useForm<AcceptValues>({ resolver: zodResolver(acceptSchema), defaultValues: { name: '', password: '', confirm: '' } });

  const accept = async (body: { token: string; name?: string; password?: string }) => {
    setFailure(null);
    try {
      await api.team.acceptInvitation(body);
      queryClient.clear();
      router.history.push('/dashboard/');
    } catch (error) {
      setFailure(error);
      if (error instanceof ApiError && error.fieldError('password')) form.setError('password', { message: error.fieldError('password') });
    }
  };
  const onSubmit = form.handleSubmit(({ name, password }) => accept({ token, name, password }));
  const signInHere = `/sign-in?redirect=${encodeURIComponent(`/invitation#token=${token}`)}`;

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <h1 className="text-xl font-semibold">Join a publication on Gatehouse</h1>
        {!token && <ErrorMessage error={new ApiError({ type: 'about:blank', title: 'No invitation', status: 400, detail: 'This link has no invitation in it. Open the link exactly as you received it.', code: 'validation_failed' })} />}
        {invitation.isPending && token && <Loading what="your invitation" />}
        {invitation.error && <div className="mt-4"><ErrorMessage error={invitation.error} /></div>}
        {invitation.data && !session.isPending && (
          <>
            <p className="mt-2 text-sm text-slate-700">
              You are invited to <strong>{invitation.data.publicationName}</strong> as <strong>{ROLE_LABELS[invitation.data.role]}</strong>, with the
              email <strong>{invitation.data.email}</strong>.
            </p>
            {signedInAs === invitation.data.email ? (
              <div className="mt-5 space-y-4">
                <p className="text-sm text-slate-700">You are signed in with this email: joining adds the publication to your account.</p>
                <ErrorMessage error={failure} />
                <Button type="button" className="w-full" onClick={() => void accept({ token })}>
                  Join {invitation.data.publicationName}
                </Button>
              </div>
            ) : (
              <>
                {signedInAs && (
                  <p role="note" className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                    You are signed in as {signedInAs}. To join with {invitation.data.email}, sign out first.
                  </p>
                )}
                <p className="mt-3 text-sm text-slate-700">
                  Already have a Gatehouse account with this email? <a className="font-medium text-indigo-700 underline" href={`/dashboard${signInHere}`}>Sign in</a>, then
                  open this link again. Otherwise, choose a password to create your account.
                </p>
                <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate>
                  <Field label="Your name" error={form.formState.errors.name?.message}>
                    {(control) => <Input autoComplete="name" {...control} {...form.register('name')} />}
                  </Field>
                  <Field label="New password" hint="8 to 72 characters." error={form.formState.errors.password?.message}>
                    {(control) => <Input type="password" autoComplete="new-password" {...control} {...form.register('password')} />}
                  </Field>
                  <Field label="Repeat the password" error={form.formState.errors.confirm?.message}>
                    {(control) => <Input type="password" autoComplete="new-password" {...control} {...form.register('confirm')} />}
                  </Field>
                  <ErrorMessage error={failure} />
                  <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
                    Accept and sign in
                  </Button>
                </form>
              </>
            )}
          </>
        )}
      </Card>
    </main>
  );
}
