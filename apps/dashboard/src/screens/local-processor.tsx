import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/queries';
import { Button } from '../components/ui/button';
import { ErrorMessage } from '../components/ui/states';

/** Under `npm start` the local fake processor stands in: its key, offered in one click. */
export function LocalProcessor({ secretKey }: { secretKey: string }) {
  const queryClient = useQueryClient();
  const connect = useMutation({
    mutationFn: () => api.processor.save({ secretKey }),
    onSuccess: (saved) => queryClient.setQueryData(keys.processor.all, saved),
  });
  return (
    <div className="space-y-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900">
      <p>
        This Gatehouse runs with the local test processor (<code>npm start</code>): no real money moves. Connect it with its key{' '}
        <code className="break-all">{secretKey}</code> to try checkouts now.
      </p>
      <Button size="sm" requires="edit" onClick={() => connect.mutate()} disabled={connect.isPending}>
        Connect the local test processor
      </Button>
      <ErrorMessage error={connect.error} />
    </div>
  );
}
