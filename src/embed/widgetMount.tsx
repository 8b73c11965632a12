// Mounts a widget into an element: in its shadow root for partner pages (their CSS stays out,
// ours stays in; embed/mount.tsx adds the stylesheet), or into the element itself for the hosted and
// iframe pages, whose HTML carries the stylesheet already (scripts/build.mjs: their first screen is
// drawn before any module runs), so their first load does without it.
import { effect } from '@preact/signals'
import { render } from 'preact'
import { App } from '../App'
import { type WidgetOptions, parseOptions } from '../config/config'
import { linkProblemText } from '../errors/words'
import { loadLocale } from '../i18n/i18n'
import { type Services, createServices } from '../services'
import type { LinkProblem as Problem } from '../config/link'
import { LinkProblem } from '../screens/LinkProblem'
import type { Emit } from '../config/protocol'
import type { applyUpdate } from './liveUpdate'
import { offerSandboxWallet } from '../wallet/sandboxOffer'

// A built page carries the stylesheet in its HTML (scripts/build.mjs); the dev server's pages do not.
if (import.meta.env.DEV) void import('../styles.css')

export type MountOptions = {
  /** Render in a shadow root (partner pages). */
  shadow: boolean
  emit: Emit
  /** Offer a close button that emits `close`. */
  closable?: boolean
  /** The widget is the page (hosted, iframe): it owns the main landmark. */
  ownsPage?: boolean
  /** The stylesheet to adopt where the widget renders (a partner page's shadow root). */
  css?: string
  /** The browser's Back is the widget's Back (embed/browserBack.ts): the hosted page, or a partner who opts in. */
  history?: boolean
  /**
   * What `update()` applies (embed/liveUpdate.ts): the iframe page and partners' pages pass it. The
   * hosted page takes no update (no page embeds it to send one), so its first load does without it.
   */
  update?: typeof applyUpdate
}

export type Mounted = {
  update(options: Partial<WidgetOptions>): void
  unmount(): void
}

let sheet: CSSStyleSheet | undefined
function styles(css: string): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
  }
  return sheet
}

/**
 * A hosted-page or iframe link that must not start: says so to the buyer, names the reason in the
 * console, and sends an `error` event (`bad_signature` for a changed or expired link).
 */
export function mountLinkProblem(host: HTMLElement, problem: Problem, emit: Emit | undefined, locale: string) {
  console.error(`[stablecoin-widget] this link does not start: ${problem.detail}`)
  emit?.('error', { code: problem.code, message: linkProblemText(problem).title, detail: problem.detail })
  // The first screen the page drew from its HTML (embed/firstPaint.mjs) is not this link's.
  host.querySelector(':scope > [data-first-screen]')?.remove()
  const draw = () => render(<LinkProblem problem={problem} />, host)
  draw()
  loadLocale(locale).then(draw)
}

export function mountWidget(host: HTMLElement, options: Partial<Record<keyof WidgetOptions, unknown>>, how: MountOptions): Mounted {
  const container = containerIn(host, how)
  const result = parseOptions(options, navigator.language)
  // Every event carries the partner's reference, so their page can match it to their order.
  const reference = result.ok ? result.config.reference : undefined
  const emit: Emit = (name, payload) => how.emit(name, reference === undefined ? payload : { ...payload, reference })
  const abort = new AbortController()
  let services: Services | undefined
  let stopLocale = () => {}
  if (result.ok) {
    services = createServices({ ...result.config, partner: how.shadow ? undefined : (options as { partner?: string }).partner }, emit, abort.signal)
    const live = services.live
    stopLocale = effect(() => void loadLocale(live.value.locale))
    // A partner's page (script, element, markup) in a sandbox build offers the sandbox's test wallet,
    // as the hosted page does (main.tsx); the iframe's page sends a buyer without a wallet there.
    if (__SANDBOX_BUILD__ && how.shadow && result.config.sandbox) offerSandboxWallet(window, result.config.flow, result.config.chains)
  } else {
    console.error(`[stablecoin-widget] ${result.problem}`)
    how.emit('error', { code: 'bad_option', message: result.problem })
  }
  render(
    <App
      result={result}
      services={services}
      landmark={how.ownsPage ?? false}
      onClose={how.closable ? () => emit('close', { flow: result.ok ? result.config.flow : undefined }) : undefined}
    />,
    container,
  )
  let stopBack = () => {}
  if (how.history) {
    import('./browserBack').then(({ followBrowserBack }) => {
      if (!abort.signal.aborted) stopBack = followBrowserBack(container)
    })
  }

  return {
    update(options) {
      if (services) how.update?.(services, options, how.emit)
    },
    unmount() {
      abort.abort(new Error('unmounted'))
      stopLocale()
      stopBack()
      render(null, container)
      container.remove()
    },
  }
}

/** The widget's own element: in the host's shadow root (a partner page), else in the host itself. */
function containerIn(host: HTMLElement, how: MountOptions): HTMLElement {
  // Constructed sheets, not <style> tags: allowed under a style-src CSP without 'unsafe-inline'.
  let root: ShadowRoot | Document = document
  if (how.shadow) {
    root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  }
  if (how.css && !root.adoptedStyleSheets.includes(styles(how.css))) root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles(how.css)]
  const container = document.createElement('div')
  ;(how.shadow ? (root as ShadowRoot) : host).appendChild(container)
  return container
}
