// The hosted page's URL against a running stack (what `npm start` prints, what e2e opens): the
// sandbox partner from the registry, buyer-facing options, and the partner's signature over it all
// (as a partner's server signs its links). Without `flow` the page asks which flow to run.
import { signUrl } from './sign.mjs'

export function demoUrl(config, base = 'http://127.0.0.1:5173/', flow = undefined, extra = {}, { sign = true } = {}) {
  const params = {
    partner: config.partner,
    ...(flow ? { flow } : {}),
    currencies: 'EUR,USD,GBP',
    cardCrypto: 'ETH',
    ...extra,
  }
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  const url = `${base}?${query.join('&')}`
  return sign && config.signingKey ? signUrl(url, config.signingKey) : url
}

/**
 * Timers of the sandbox build (registry only, sandbox entries only): status polls, the dropped-
 * transaction check, the KYC recheck, the bank poll and the first 429 backoff, short enough that the
 * end-to-end suite waits on conditions, not on production timers. A production build keeps its own.
 */
export const SANDBOX_TIMINGS = { pollMs: 500, dropCheckMs: 500, kycRecheckMs: 500, bankPollMs: 500, backoffBaseMs: 250 }

/** The sandbox partner's registry entry (`npm run build -- --partners FILE` reads an array of these). */
export function sandboxEntry(config, publicKey) {
  const origin = new URL(config.apiBase).origin
  return {
    id: config.partner,
    environment: 'sandbox',
    apiBase: config.apiBase,
    partnerBase: config.partnerBase,
    // Its kit reads crypto deposits (stack.mjs partnerChains), so it links wallets: the deposit asks
    // it before the first send (docs/partner-kit.md).
    walletLink: true,
    cardHosts: config.cardHosts,
    identityUrl: config.identityUrl,
    chains: config.chains,
    sources: config.sources,
    // The example partner pages are served from the sandbox's origin: they frame the widget and get the buyer back.
    parentOrigins: [origin],
    returnOrigins: [origin],
    publicKey,
    timings: SANDBOX_TIMINGS,
    // Where the first screens start: euros to Germany (each only where a route serves it).
    defaults: { currency: 'EUR', country: 'DE' },
    // WalletConnect through the sandbox's own relay (stack.mjs opts.walletConnect), offline.
    ...(config.walletConnect ? { walletConnect: { projectId: 'sandbox', relayUrl: config.walletConnect.relayUrl } } : {}),
  }
}
