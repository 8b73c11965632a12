/** The hosted page's URL for a flow against a running stack (same as `npm start` prints). */
export function demoUrl(config, base = 'http://127.0.0.1:5173/', flow = 'deposit', extra = {}) {
  const params = {
    flow,
    apiBase: config.apiBase,
    sandbox: '1',
    chains: JSON.stringify(config.chains),
    sources: JSON.stringify(config.sources),
    ...extra,
  }
  const query = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  return `${base}?${query.join('&')}`
}
