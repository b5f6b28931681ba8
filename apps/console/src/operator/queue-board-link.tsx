import { storedCredential } from '../session/session.util';

/**
 * The gateway's read-only queue dashboard (`/admin/queues`). A browser cannot
 * send the Bearer token while navigating, so when the console is served by
 * that gateway (same origin) the link first sets the board's cookie for that
 * path only; a console hosted elsewhere says how to open it.
 */
export function QueueBoardLink({ baseUrl }: { baseUrl: string }) {
  const board = `${baseUrl.replace(/\/+$/, '')}/admin/queues`;
  const sameOrigin = new URL(board, window.location.href).origin === window.location.origin;
  if (!sameOrigin)
    return (
      <a
        href={board}
        target="_blank"
        rel="noreferrer"
        title="Set the genhub_admin_token cookie on the gateway's host to open it"
      >
        Queue dashboard
      </a>
    );
  return (
    <a
      href={board}
      target="_blank"
      rel="noreferrer"
      onClick={() => {
        const token = storedCredential('adminToken') ?? '';
        const secure = window.location.protocol === 'https:' ? '; Secure' : '';
        document.cookie = `genhub_admin_token=${encodeURIComponent(token)}; path=/admin/queues; SameSite=Strict${secure}`;
      }}
    >
      Queue dashboard
    </a>
  );
}

/** Signing out takes the board's cookie away too. */
export function forgetQueueBoardCookie(): void {
  document.cookie = 'genhub_admin_token=; path=/admin/queues; max-age=0';
}
