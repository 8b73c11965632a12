// The example partner pages, one per mode, from the template examples/partner.html, served
// from the sandbox's origin (a partner's origin, not the widget's) with this stack's settings.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { demoUrl } from '../demoUrl.mjs'
import { partnerKit } from './card.mjs'
import { DEMO_USERS } from './partnerDemo.mjs'

const DIR = fileURLToPath(new URL('../../../examples/', import.meta.url))
// csp is script mode under a strict Content-Security-Policy header; hosted links to the full page;
// markup is a <div data-stablecoin-widget> that the script tag mounts by itself; frame is an
// <iframe data-stablecoin-widget> with the signed link, which loads with the page and which the script
// tag adopts.
const MODES = { script: 'script', iframe: 'iframe', element: 'element', markup: 'markup', frame: 'frame', csp: 'script', hosted: 'hosted' }
const ASSETS = { 'partner.js': 'text/javascript', 'partner.css': 'text/css', 'payments.js': 'text/javascript', 'payments.css': 'text/css' }

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The directives a partner page needs for the widget (docs/embedding.md lists them too). */
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

/** The demo user a page is for (`?user=bob`); alice when it names none of them. */
const demoUser = (query) => (DEMO_USERS.includes(query.get('user')) ? query.get('user') : DEMO_USERS[0])

export function exampleRoutes({ config, widgetBase, demo }) {
  function options(query) {
    const flow = query.get('flow') ?? 'deposit'
    // Demo sign-in: the partner's page hands the widget its user's session as partnerToken (in the
    // options of a page that mounts the widget; not in a link, see linkOptions).
    const partnerToken = demo?.tokenFor(demoUser(query))
    return {
      flow,
      ...(partnerToken ? { partnerToken } : {}),
      apiBase: config.apiBase,
      sandbox: true,
      chains: config.chains,
      sources: config.sources,
      partnerBase: config.partnerBase,
      // The page owns its options in script mode: its kit links wallets, as the registry says for links.
      walletLink: true,
      cardHosts: config.cardHosts,
      currencies: ['EUR', 'USD'],
      cardCrypto: 'ETH',
      identityUrl: config.identityUrl,
      ...(query.get('theme') ? { theme: query.get('theme') } : {}),
      ...(query.get('locale') ? { locale: query.get('locale') } : {}),
      ...(query.get('amount') ? { amount: query.get('amount') } : {}),
      ...(query.get('brand') ? { brand: { color: query.get('brand') } } : {}),
      // Back from the identity provider (the widget sent the buyer there with this page as the way
      // back): the page hands the widget the single-use code, as a partner's page would.
      ...(query.get('authCode') ? { authCode: query.get('authCode') } : {}),
      reference: 'order-42',
      closable: true,
    }
  }

  // Links are signed the way a partner's server signs them: with the partner kit's signWidgetUrl.
  /** Buyer-facing options of a link (everything else comes from the registry entry). */
  function linkOptions(opts) {
    const out = {}
    // Never the demo session (partnerToken): the widget sends its own link as the card page's and
    // the identity provider's return URL, so a token in it would reach them.
    for (const key of ['theme', 'locale', 'amount', 'reference']) if (opts[key] !== undefined) out[key] = String(opts[key])
    if (opts.brand) out.brand = JSON.stringify(opts.brand)
    return out
  }

  /** The hosted page, signed by the partner's server (the reference needs the signature), returning here. */
  function hostedUrl(opts, query) {
    const back = new URL(`${config.apiBase}/examples/hosted.html`)
    back.search = new URLSearchParams({ ...Object.fromEntries(query), returned: '1' }).toString()
    const link = demoUrl(config, `${widgetBase}/`, opts.flow, { currencies: 'EUR,USD', ...linkOptions(opts), returnUrl: back.href }, { sign: false })
    return partnerKit.signWidgetUrl(link, config.signingKey)
  }

  /** The iframe's page, signed the same way: the page hands it to StablecoinWidget.iframe({ link }). */
  function embedUrl(opts) {
    const link = demoUrl(config, `${widgetBase}/embed.html`, opts.flow, { currencies: 'EUR,USD', ...linkOptions(opts) }, { sign: false })
    return partnerKit.signWidgetUrl(link, config.signingKey)
  }

  async function page(mode, query) {
    const opts = options(query)
    // The integrity hash of the loader being served (the sandbox build's, in e2e).
    const sri = await fetch(`${widgetBase}/sri.json`)
      .then(
        (r) => (r.ok ? r.json() : {}),
        () => ({}),
      )
      .then((s) => s['stablecoin-widget.js'])
    // Markup gives a declared widget only what a buyer may choose (src/config/params.ts MARKUP_OPTIONS);
    // the service's settings go on the loader's own tag.
    const buyer = ['flow', 'amount', 'currencies', 'locale', 'theme', 'brand', 'cardCrypto', 'authCode', 'closable']
    const attrs = (prefix, service = false) =>
      Object.entries(opts)
        .filter(([k]) => buyer.includes(k) !== service)
        .map(
          ([k, v]) =>
            `${prefix}${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(typeof v === 'object' ? (Array.isArray(v) && typeof v[0] === 'string' ? v.join(',') : JSON.stringify(v)) : String(v))}"`,
        )
        .join(' ')
    const element =
      mode === 'element'
        ? `<stablecoin-widget ${attrs('')}></stablecoin-widget>`
        : mode === 'markup'
          ? `<div data-stablecoin-widget ${attrs('data-')}></div>`
          : mode === 'frame'
            ? `<iframe data-stablecoin-widget src="${escapeHtml(await embedUrl(opts))}" title="Payment widget" allow="payment; clipboard-write"></iframe>`
            : mode === 'hosted'
              ? `<a class="pay" href="${escapeHtml(await hostedUrl(opts, query))}">Pay with stablecoins</a>`
              : ''
    let html = readFileSync(`${DIR}partner.html`, 'utf8')
      .replaceAll('{{MODE}}', MODES[mode])
      .replaceAll('{{CONFIG}}', escapeHtml(JSON.stringify(mode === 'iframe' ? { link: await embedUrl(opts), reference: opts.reference } : opts)))
      .replaceAll('{{WIDGET_BASE}}', widgetBase)
      .replaceAll('{{ELEMENT}}', element)
      .replaceAll('{{LOADER_SETTINGS}}', mode === 'element' || mode === 'markup' ? ` ${attrs('data-', true)}` : '')
      // A script that blocks the parser in the head holds back every element after it, a declared
      // frame too: that page's own script is deferred (the frame keeps its events until adopted).
      .replaceAll('{{PARTNER_DEFER}}', mode === 'frame' ? ' defer' : '')
    html = sri ? html.replaceAll('{{LOADER_SRI}}', sri) : html.replace(/ integrity="\{\{LOADER_SRI\}\}"/g, '')
    return html
  }

  const routes = {}
  for (const mode of Object.keys(MODES)) {
    routes[`GET /examples/${mode}.html`] = async ({ query }) => ({
      html: await page(mode, query),
      headers:
        mode === 'csp'
          ? {
              'Content-Security-Policy': cspFor(
                widgetBase,
                config.apiBase,
                config.chains.map((c) => c.rpcUrl),
              ),
            }
          : {},
    })
  }
  // The partner's Payments page: the signed-in demo user's payments, from the partner's server.
  routes['GET /examples/payments.html'] = ({ query }) => {
    const user = demoUser(query)
    const other = DEMO_USERS.find((u) => u !== user)
    return {
      html: readFileSync(`${DIR}payments.html`, 'utf8')
        .replaceAll('{{USER}}', escapeHtml(user))
        .replaceAll('{{OTHER}}', escapeHtml(other))
        .replaceAll('{{SESSION}}', escapeHtml(demo?.tokenFor(user) ?? '')),
      headers: { 'Cache-Control': 'no-store' },
    }
  }
  for (const [name, type] of Object.entries(ASSETS)) {
    routes[`GET /examples/${name}`] = () => ({ raw: readFileSync(DIR + name, 'utf8'), type })
  }
  return { routes }
}
