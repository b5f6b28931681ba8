import { MutationObserver, onlineManager } from '@tanstack/react-query';
import { apiError, networkError } from './api-error.util';
import { sessionQueryClient } from './query-client';

/** A session's cache: where a 401 ends the session, and how failures reach the pages. */
describe('sessionQueryClient', () => {
  const refused = (status: number, message: string) => () =>
    Promise.reject(apiError(status, { error: message }));

  it('signs out with the server’s message when a read is refused with 401', async () => {
    const signOut = jest.fn();
    const client = sessionQueryClient(signOut);
    await expect(
      client.fetchQuery({
        queryKey: ['tasks'],
        queryFn: refused(401, 'Invalid or revoked API key'),
      }),
    ).rejects.toMatchObject({ status: 401 });
    expect(signOut).toHaveBeenCalledWith('Invalid or revoked API key');
  });

  it('signs out when a change is refused with 401 too', async () => {
    const signOut = jest.fn();
    const client = sessionQueryClient(signOut);
    const change = new MutationObserver(client, {
      mutationFn: refused(401, 'Invalid admin token'),
    });
    await expect(change.mutate()).rejects.toMatchObject({ status: 401 });
    expect(signOut).toHaveBeenCalledWith('Invalid admin token');
  });

  it('leaves every other failure to the page, at once (no retries)', async () => {
    const signOut = jest.fn();
    const client = sessionQueryClient(signOut);
    const read = jest.fn(refused(403, 'Account suspended'));
    await expect(client.fetchQuery({ queryKey: ['balance'], queryFn: read })).rejects.toThrow(
      'Account suspended',
    );
    expect(read).toHaveBeenCalledTimes(1);
    expect(signOut).not.toHaveBeenCalled();
  });

  it('fails offline instead of waiting silently for the network', async () => {
    const client = sessionQueryClient(jest.fn());
    onlineManager.setOnline(false);
    try {
      const query = client.fetchQuery({
        queryKey: ['models'],
        queryFn: () => Promise.reject(networkError()),
      });
      await expect(query).rejects.toThrow('The server cannot be reached');
      const change = new MutationObserver(client, {
        mutationFn: () => Promise.reject(networkError()),
      });
      await expect(change.mutate()).rejects.toThrow('The server cannot be reached');
    } finally {
      onlineManager.setOnline(true);
    }
  });
});
