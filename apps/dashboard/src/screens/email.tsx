import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailLanguage, EmailMessageSummary, EmailTemplateView, MessageKind, TemplateKind } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { ApiError, api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { Dialog } from '../components/ui/dialog';
import { Field, Input, Select, Textarea, GuardedFields } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, Notice } from '../components/ui/states';
import { formatDateTime } from '../lib/format';

const KIND_LABELS: Record<TemplateKind, string> = {
  password_reset: 'Password reset',
  email_verification: 'Email verification',
  login_code: 'Sign-in code',
  payment_failed: 'Payment failed',
  payment_retry: 'Payment failed again',
  payment_final: 'Payment: final notice',
  card_expiring: 'Card expiring',
  win_back: 'Win-back offer',
  gift_received: 'Gift received',
  gift_ending: 'Gift ending',
};
const MESSAGE_LABELS: Record<MessageKind, string> = { ...KIND_LABELS, staff_invitation: 'Staff invitation', organisation_invitation: 'Organisation invitation' };
const LANGUAGE_LABELS: Record<EmailLanguage, string> = { en: 'English', de: 'German' };
const STATUS_TONE = { pending: 'neutral', sending: 'neutral', sent: 'good', failed: 'bad' } as const;

/** Account email (docs/email.md): what was sent to readers, the local mailbox, and the copy of each message. */
export function EmailScreen() {
  return (
    <>
      <PageHeader
        title="Email"
        description="The account email readers get (password reset, email verification, sign-in codes) and your team's invitations: what was sent, and the copy of each message to readers."
      />
      <Mailbox />
      <Templates />
    </>
  );
}

function Mailbox() {
  const messages = useQuery(queries.mailbox());
  const [reading, setReading] = useState<string | null>(null);
  return (
    <Card aria-labelledby="mailbox-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id="mailbox-heading" className="text-base font-semibold">Sent messages</h2>
        <Button size="sm" variant="secondary" onClick={() => void messages.refetch()}>Refresh</Button>
      </div>
      <p className="text-sm text-slate-600">
        Newest first. Without an SMTP server (the <code className="rounded bg-slate-100 px-1 text-xs">SMTP_URL</code> setting) messages stay in this local mailbox, where you
        can read them.
      </p>
      {messages.isPending && <Loading what="messages" />}
      {messages.error && <ErrorMessage error={messages.error} onRetry={() => void messages.refetch()} />}
      {messages.data?.items.length === 0 && <Empty title="No email sent yet">Messages appear when readers reset a password, verify an address or ask for a sign-in code.</Empty>}
      {messages.data && messages.data.items.length > 0 && (
        <Table>
          <caption className="sr-only">Sent messages</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-2">Created</th>
              <th scope="col" className="px-2 py-2">To</th>
              <th scope="col" className="px-2 py-2">Message</th>
              <th scope="col" className="px-2 py-2">Status</th>
              <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {messages.data.items.map((m: EmailMessageSummary) => (
              <tr key={m.id} className="border-t border-slate-100">
                <td className="px-2 py-2">{formatDateTime(m.createdAt)}</td>
                <td className="px-2 py-2">{m.to}</td>
                <td className="px-2 py-2">{m.subject ?? MESSAGE_LABELS[m.kind]} <span className="text-xs text-slate-600">({LANGUAGE_LABELS[m.language]})</span></td>
                <td className="px-2 py-2">
                  <Badge tone={STATUS_TONE[m.status]}>{m.status}</Badge>
                  {m.delivery && <span className="ml-2 text-xs text-slate-600">{m.delivery === 'mailbox' ? 'local mailbox' : 'SMTP'}</span>}
                  {m.lastError && <span className="block text-xs text-red-700">{m.lastError} (attempt {m.attempts})</span>}
                </td>
                <td className="px-2 py-2 text-right">
                  <Button size="sm" variant="secondary" onClick={() => setReading(m.id)} aria-label={`Read the message to ${m.to} of ${formatDateTime(m.createdAt)}`}>Read</Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {reading && <Message messageId={reading} onClose={() => setReading(null)} />}
    </Card>
  );
}

function Message({ messageId, onClose }: { messageId: string; onClose: () => void }) {
  const message = useQuery(queries.message(messageId));
  const m = message.data;
  return (
    <Dialog wide open onOpenChange={(open) => !open && onClose()} title={m?.subject ?? 'Message'} description={m ? `To ${m.to}, ${formatDateTime(m.sentAt ?? m.createdAt)}` : undefined}>
      {message.isPending && <Loading what="the message" />}
      {message.error && <ErrorMessage error={message.error} />}
      {m && (m.text === null && m.html === null ? (
        <p className="text-sm text-slate-700">Its content is not kept: it was handed to the SMTP server (or has not been sent yet).</p>
      ) : (
        <div className="space-y-3">
          {/* No scripts, no same origin: the message is shown as a mail client would. */}
          {m.html && <iframe title={`The message to ${m.to} as HTML`} sandbox="" srcDoc={m.html} className="h-80 w-full rounded border border-slate-200" />}
          {m.text && (
            <details>
              <summary className="cursor-pointer text-sm font-medium">Plain text</summary>
              <pre className="mt-2 whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs">{m.text}</pre>
            </details>
          )}
        </div>
      ))}
    </Dialog>
  );
}

function Templates() {
  const templates = useQuery(queries.emailTemplates());
  const [kind, setKind] = useState<TemplateKind>('password_reset');
  const [language, setLanguage] = useState<EmailLanguage>('en');
  const template = templates.data?.find((t) => t.kind === kind && t.language === language);
  // Kept here: the form starts afresh when the template's state changes, the notice stays.
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card aria-labelledby="templates-heading" className="space-y-3">
      <h2 id="templates-heading" className="text-base font-semibold">Message copy</h2>
      <p className="text-sm text-slate-600">
        The layout, logo and colour come from your branding. In the copy these are filled in:{' '}
        {['name', 'publication', 'code', 'minutes'].map((placeholder, i) => (
          <span key={placeholder}>
            {i > 0 && ', '}
            <code className="rounded bg-slate-100 px-1 text-xs">{`{{${placeholder}}}`}</code>
          </span>
        ))}
        .
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Message">
          {(control) => (
            <Select value={kind} onChange={(e) => { setKind(e.target.value as TemplateKind); setNotice(null); }} {...control}>
              {Object.entries(KIND_LABELS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </Select>
          )}
        </Field>
        <Field label="Language">
          {(control) => (
            <Select value={language} onChange={(e) => { setLanguage(e.target.value as EmailLanguage); setNotice(null); }} {...control}>
              {Object.entries(LANGUAGE_LABELS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </Select>
          )}
        </Field>
      </div>
      {templates.isPending && <Loading what="the copy" />}
      {templates.error && <ErrorMessage error={templates.error} onRetry={() => void templates.refetch()} />}
      {notice && <Notice>{notice}</Notice>}
      {template && <TemplateForm key={`${template.kind}-${template.language}-${template.customized}`} template={template} onDone={setNotice} />}
    </Card>
  );
}

function TemplateForm({ template, onDone }: { template: EmailTemplateView; onDone: (notice: string | null) => void }) {
  const queryClient = useQueryClient();
  const [copy, setCopy] = useState({ subject: template.subject, body: template.body, action: template.action });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.emailTemplates.all });
  const save = useMutation({ mutationFn: () => api.email.saveTemplate(template, copy), onMutate: () => onDone(null), onSuccess: () => { onDone('Saved: the next messages use this copy.'); refresh(); } });
  const reset = useMutation({ mutationFn: () => api.email.resetTemplate(template), onMutate: () => onDone(null), onSuccess: () => { onDone('Back to the built-in copy.'); refresh(); } });
  const fieldError = (field: string) => (save.error instanceof ApiError ? save.error.fieldError(field) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form aria-label="Edit the message copy" className="space-y-3" onSubmit={submit} noValidate>
      <p className="text-sm">{template.customized ? <Badge tone="warn">your copy</Badge> : <Badge>built-in copy</Badge>}</p>
      <GuardedFields requires="edit" className="space-y-3">
        <Field label="Subject" error={fieldError('subject')}>{(control) => <Input value={copy.subject} onChange={(e) => setCopy({ ...copy, subject: e.target.value })} {...control} />}</Field>
        <Field label="Body" hint="Paragraphs separated by blank lines, above the button." error={fieldError('body')}>
          {(control) => <Textarea rows={6} value={copy.body} onChange={(e) => setCopy({ ...copy, body: e.target.value })} {...control} />}
        </Field>
        <Field label="Button text" error={fieldError('action')}>{(control) => <Input value={copy.action} onChange={(e) => setCopy({ ...copy, action: e.target.value })} {...control} />}</Field>
      </GuardedFields>
      <ErrorMessage error={save.error && !fieldError('subject') && !fieldError('body') && !fieldError('action') ? save.error : reset.error} />
      <div className="flex justify-end gap-2">
        {template.customized && <Button requires="edit" variant="secondary" onClick={() => reset.mutate()} disabled={reset.isPending}>Back to the built-in copy</Button>}
        <Button requires="edit" type="submit" disabled={save.isPending}>Save copy</Button>
      </div>
    </form>
  );
}
