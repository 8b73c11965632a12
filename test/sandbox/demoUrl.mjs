/**
 * The hosted page's URL against a running stack (what `npm start` prints, what e2e opens).
 * Without `flow` the page asks which of the three flows to run.
 */
export function demoUrl(config, base = 'http://127.0.0.1:5173/', flow = undefined, extra = {}) {
  const params = {
    ...(flow ? { flow } : {}),
    apiBase: config.apiBase,
    sandbox: '1',
    chains: JSON.stringify(config.chains),
    sources: JSON.stringify(config.sources),
    partnerBase: config.partnerBase,
    cardHosts: config.cardHosts.join(','),
    currencies: 'EUR,USD,GBP',
    cardCrypto: 'ETH',
    identityUrl: config.identityUrl,
    ...extra,
  }
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  return `${base}?${query.join('&')}`
}
