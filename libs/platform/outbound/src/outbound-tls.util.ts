import { Agent } from 'undici';

/** The agent of outbound `fetch` calls when OUTBOUND_TLS_CA is set; unset: Node's default. */
let trustingAgent: Agent | undefined;

/**
 * Makes `outboundFetch` (upstream providers, the chat backends) trust `cas` —
 * the system's roots and OUTBOUND_TLS_CA's private one — or, undefined, Node's
 * defaults again. Every app calls it at start-up (ServiceModule). Webhooks and
 * media fetches have agents of their own and take the same list (decision 0138).
 * Certificates are verified either way: nothing here turns verification off.
 */
export function trustForOutboundFetch(cas: string[] | undefined): void {
  const previous = trustingAgent;
  trustingAgent = cas ? new Agent({ connect: { ca: cas } }) : undefined;
  void previous?.close();
}

/** The global `fetch`, through the agent that trusts OUTBOUND_TLS_CA when it is set. */
export function outboundFetch(url: string, init: RequestInit): Promise<Response> {
  if (!trustingAgent) return fetch(url, init);
  // Node's fetch takes an undici dispatcher; its types and the undici package's differ in detail.
  // (and a project type-checked with the DOM's RequestInit has no `dispatcher` at all).
  const withAgent: object = { ...init, dispatcher: trustingAgent };
  return fetch(url, withAgent as RequestInit);
}
