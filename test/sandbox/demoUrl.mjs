/** The hosted page's URL for a flow against a running stack. */
export function demoUrl(config, base = 'http://127.0.0.1:5173/', flow = 'deposit', extra = {}) {
  const params = new URLSearchParams({
    flow,
    apiBase: config.apiBase,
    sandbox: '1',
    chains: JSON.stringify(config.chains),
    sources: JSON.stringify(config.sources),
    ...extra,
  })
  return `${base}?${params}`
}
