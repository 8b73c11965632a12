// Build time only (scripts/build.mjs renders it through Vite's SSR; no bundle imports it): the first
// screens the pages draw from their HTML before any module has run (issue 19). Each is the flow's
// own first screen, rendered by the same components with the options a plain link gives (English,
// light theme, no amount, the default currencies, nothing stored). The page's inline script shows
// one only for such a link; the app then takes over, and the script hands it what the buyer did.
import renderToString from 'preact-render-to-string'
import { Shell } from '../App'
import { DEFAULT_CURRENCIES, DEFAULT_THEME, FLOW_NEEDS, type WidgetConfig, defaultFlows, themes } from '../config/config'
import { type MessageKey, addEnglish, t } from '../i18n/i18n'
import { enCard } from '../i18n/en-card'
import { enDeposit } from '../i18n/en-deposit'
import { enOnboarding } from '../i18n/en-onboarding'
import { emptyApplicant } from '../identity/machine'
import { CardFormScreen } from '../screens/card/CardFormScreen'
import { WalletStep } from '../screens/identity/WalletStep'
import { WalletScreen } from '../screens/deposit/WalletScreen'
import { emptyForm } from '../flows/deposit/machine'
import type { ComponentChildren } from 'preact'
import { NS } from '../storage/safeStorage'
import { USED_CODES_KEY } from '../identity/usedCodes'

/**
 * What a link may say and still get the drawn screen (`free`; the page draws the theme and the
 * card's currencies as the app does), and the themes it may name.
 */
export const PLAIN_LINK = {
  free: ['partner', 'flow', 'signature', 'expires', 'reference', 'returnUrl', 'parentOrigin', 'cardCrypto', 'locale', 'theme', 'currencies'],
  themes: [...themes],
  defaultTheme: DEFAULT_THEME,
}

/**
 * Any key of this partner's on its service (storage/safeStorage.ts scopedStorage: the prefix, then
 * JSON [partner id, apiBase]) but the used codes means a flow may resume: the app draws the first
 * screen then. Another partner's records, and the rate slots (shared: the service limits per IP),
 * are not this page's.
 */
const UNRELATED_KEYS = [USED_CODES_KEY.slice(NS.length)]

const STEPS = 4
const noop = () => {}

function frame(title: MessageKey, sandbox: boolean, closable: boolean, screen: ComponentChildren): string {
  return renderToString(
    <div data-first-screen="">
      <Shell
        landmark
        live={{ theme: DEFAULT_THEME, brand: {}, locale: 'en' }}
        sandbox={sandbox}
        title={t(title)}
        step={[1, STEPS]}
        onClose={closable ? noop : undefined}
      >
        {screen}
      </Shell>
    </div>,
  )
}

/**
 * What firstPaint.mjs is called with (but the catalogs, which the build knows), for a build
 * of one environment: `flows`, what its entries offer when they name none (as link.ts resolves them).
 */
export function firstPaintData({ sandbox }: { sandbox: boolean }) {
  return {
    ...PLAIN_LINK,
    needs: FLOW_NEEDS,
    flows: defaultFlows(sandbox),
    loading: t('app.loading'),
    discovers: 'deposit',
    stored: NS,
    unrelated: UNRELATED_KEYS,
  }
}

/** The first screens, as HTML, for a build (`sandbox`: with the badge) and a page (`closable`: the iframe's). */
export function firstScreens({ sandbox, closable }: { sandbox: boolean; closable: boolean }): Record<string, string> {
  addEnglish(enCard)
  addEnglish(enOnboarding)
  addEnglish(enDeposit)
  const config = { fiatCurrencies: [...DEFAULT_CURRENCIES], locale: 'en', lockAmount: false } as unknown as WidgetConfig
  return {
    card: frame(
      'card.name',
      sandbox,
      closable,
      <CardFormScreen
        state={{ tag: 'form', form: { currency: DEFAULT_CURRENCIES[0], amount: '', address: '', asset: undefined } }}
        dispatch={noop}
        config={config}
      />,
    ),
    onboarding: frame(
      'onboarding.name',
      sandbox,
      closable,
      <WalletStep state={{ tag: 'wallet', form: emptyApplicant, connection: { tag: 'discovering' } }} dispatch={noop} />,
    ),
    // The deposit looks for the buyer's wallets; the page lists those that answer with the list the
    // screen draws for one wallet (`sw-wallets`), until the app takes over.
    deposit: frame('deposit.name', sandbox, closable, <WalletScreen state={{ tag: 'discovering', form: emptyForm }} dispatch={noop} />),
  }
}

/** The deposit's list of wallets, as its screen draws it for one (a name, an icon), for the page to fill. */
export function walletList(): string {
  addEnglish(enDeposit)
  const wallet = { id: 'w|w', rdns: 'w', name: 'w', icon: 'data:image/svg+xml,w' }
  const html = renderToString(<WalletScreen state={{ tag: 'wallets', form: emptyForm, wallets: [wallet] }} dispatch={noop} />)
  const list = /<ul class="choices">[\s\S]*?<\/ul>/.exec(html)?.[0]
  if (!list) throw new Error("the deposit's wallet screen has no list of choices")
  return list
}
