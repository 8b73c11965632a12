// The real partner kit as the deposit's wallet check meets it: the token `tok-alice` signs in
// alice, no address is held by anyone yet, and the payments service is never asked.
import { createPartnerHandler } from '../../../src/server/index'
import type { PaymentStore } from '../../../src/server/store/paymentStore'

/** A kit at `publicUrl` that answers `pageOrigin` and reads crypto deposits from `chains`. */
export function walletLinkKit(publicUrl: string, pageOrigin: string, chains: Record<number, { rpcUrl: string }>) {
  const store = { addressHolder: async () => undefined, recordChallenge: async () => {} } as unknown as PaymentStore
  return createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test',
    basePath: new URL(publicUrl).pathname,
    publicUrl,
    allowedOrigins: [pageOrigin],
    authenticate: (t) => (t === 'tok-alice' ? 'alice' : undefined),
    store,
    chains,
    fetch: (async () => Response.json({})) as typeof fetch,
    log: () => {},
  })
}
