import { useEffect, useState } from 'react';

/** The page the address names after `#` (so a static host needs no rewrites), and its changes. */
export function useHashRoute<T extends string>(pages: readonly T[], fallback: T): T {
  const read = () => {
    const name = window.location.hash.slice(1) as T;
    return pages.includes(name) ? name : fallback;
  };
  const [page, setPage] = useState(read);
  useEffect(() => {
    const update = () => setPage(read());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return page;
}
