// The example partner pages, one per mode, from the template public/examples/partner.html, served
// from the sandbox's origin (a partner's origin, not the widget's) with this stack's settings.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const DIR = fileURLToPath(new URL('../../../public/examples/', import.meta.url))
const SRI = fileURLToPath(new URL('../../../dist/sri.json', import.meta.url))
// csp is script mode under a strict Content-Security-Policy header; hosted links to the full page;
// markup is a <div data-stablecoin-widget> that the script tag mounts by itself.
const MODES = { script: 'script', iframe: 'iframe', element: 'element', markup: 'markup', csp: 'script', hosted: 'hosted' }
const ASSETS = { 'partner.js': 'text/javascript', 'partner.css': 'text/css' }

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The directives a partner page needs for the widget (the README lists them too). */
export function cspFor(widgetBase, apiBase, rpcUrls) {
  return [
    "default-src 'self'",
    `script-src 'self' ${widgetBase}`,
    `connect-src 'self' ${apiBase} ${rpcUrls.join(' ')}`,
    `frame-src ${widgetBase}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ')
}

export function exampleRoutes({ config, widgetBase }) {
  function options(query) {
    const flow = query.get('flow') ?? 'deposit'
    return {
      flow,
      apiBase: config.apiBase,
      sandbox: true,
      chains: config.chains,
      sources: config.sources,
      partnerBase: config.partnerBase,
      cardHosts: config.cardHosts,
      currencies: ['EUR', 'USD'],
      cardCrypto: 'ETH',
      identityUrl: config.identityUrl,
      ...(query.get('theme') ? { theme: query.get('theme') } : {}),
      ...(query.get('locale') ? { locale: query.get('locale') } : {}),
      ...(query.get('amount') ? { amount: query.get('amount') } : {}),
      ...(query.get('brand') ? { brand: { color: query.get('brand') } } : {}),
      reference: 'order-42',
      closable: true,
    }
  }

  /** The hosted page with every option as a query parameter, returning to this partner page. */
  function hostedUrl(opts, query) {
    const { closable, ...rest } = opts
    const back = new URL(`${config.apiBase}/examples/hosted.html`)
    back.search = new URLSearchParams({ ...Object.fromEntries(query), returned: '1' }).toString()
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries({ ...rest, returnUrl: back.href })) {
      if (typeof value === 'boolean') params.set(key, value ? '1' : '0')
      else if (Array.isArray(value) && typeof value[0] === 'string') params.set(key, value.join(','))
      else params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value))
    }
    return `${widgetBase}/?${params}`
  }

  function page(mode, query) {
    const opts = options(query)
    const sri = existsSync(SRI) ? JSON.parse(readFileSync(SRI, 'utf8'))['stablecoin-widget.js'] : undefined
    const attrs = (prefix) => Object.entries(opts)
      .map(([k, v]) => `${prefix}${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(typeof v === 'object' ? (Array.isArray(v) && typeof v[0] === 'string' ? v.join(',') : JSON.stringify(v)) : String(v))}"`)
      .join(' ')
    const element =
      mode === 'element'
        ? `<stablecoin-widget ${attrs('')}></stablecoin-widget>`
        : mode === 'markup'
          ? `<div data-stablecoin-widget ${attrs('data-')}></div>`
        : mode === 'hosted'
          ? `<a class="pay" href="${escapeHtml(hostedUrl(opts, query))}">Pay with stablecoins</a>`
          : ''
    let html = readFileSync(`${DIR}partner.html`, 'utf8')
      .replaceAll('{{MODE}}', MODES[mode])
      .replaceAll('{{CONFIG}}', escapeHtml(JSON.stringify(opts)))
      .replaceAll('{{WIDGET_BASE}}', widgetBase)
      .replaceAll('{{ELEMENT}}', element)
    html = sri ? html.replaceAll('{{LOADER_SRI}}', sri) : html.replace(/ integrity="\{\{LOADER_SRI\}\}"/g, '')
    return html
  }

  const routes = {}
  for (const mode of Object.keys(MODES)) {
    routes[`GET /examples/${mode}.html`] = ({ query }) => ({
      html: page(mode, query),
      headers:
        mode === 'csp'
          ? { 'Content-Security-Policy': cspFor(widgetBase, config.apiBase, config.chains.map((c) => c.rpcUrl)) }
          : {},
    })
  }
  for (const [name, type] of Object.entries(ASSETS)) {
    routes[`GET /examples/${name}`] = () => ({ raw: readFileSync(DIR + name, 'utf8'), type })
  }
  return { routes }
}
