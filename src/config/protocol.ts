// One typed, versioned contract for everything that crosses the widget's boundary: the events a
// partner listens to (same names in every mode) and the messages between an iframe and its parent.
import type { Flow, WidgetOptions } from './config'

type Payloads = {
  ready: { flow?: Flow }
  screen: { flow: Flow; screen: string }
  /** `fee` is the whole fee; the card flow also sends its parts, `providerFee` and `ourFee`. */
  quote: {
    flow: Flow
    amountIn: string
    amountOut: string
    fee: string
    providerFee?: string
    ourFee?: string
    currencyIn: string
    currencyOut: string
    expiresAt?: string
  }
  submitted: { flow: Flow; id: string } & PaymentIds
  status: { flow: Flow; id: string; status: string } & PaymentIds
  /** A hint for the page: confirm on your backend before you act on it. */
  complete: { flow: Flow; id: string; outcome: string; amount?: string; currency?: string; txHash?: string } & PaymentIds
  /** `message` is what the buyer reads; `code` is stable, for your logic; `detail` is the service's own text. */
  error: { flow?: Flow; code?: string; message: string; detail?: string }
  close: { flow?: Flow }
  account: { accountId: string; walletId: string; virtualAccountId: string; details: Record<string, string>; feeBps: number }
}
/**
 * What a server looks a payment up with, beside `id` (the card purchase, one-off bank deposit or payout
 * id). Ids only: never a token or a key.
 */
export type PaymentIds = {
  /**
   * The crypto deposit once its hash is known: the body of the kit's `POST /deposit/sent` (the source
   * chain's transaction), and `kitId`, the kit's id, once the kit answered it.
   */
  deposit?: { provider: string; txHash: string; chainId: number; kitId?: string }
  /** The bank flow's virtual account, as the contract names its ids (`/fiat/status` takes accountId and virtualAccountId). */
  accountId?: string
  walletId?: string
  virtualAccountId?: string
}
/** Every payload carries the partner's `reference` when one was given. */
export type WidgetEventMap = { [K in keyof Payloads]: Payloads[K] & { reference?: string } }
export type WidgetEventName = keyof WidgetEventMap
export type WidgetEvent = { [K in WidgetEventName]: { name: K; payload: WidgetEventMap[K] } }[WidgetEventName]
export type Emit = <K extends WidgetEventName>(name: K, payload: WidgetEventMap[K]) => void

export const VERSION = 1
export const GUEST = 'stablecoin-widget'
export const HOST = 'stablecoin-widget-host'

/** From the iframe to its parent. `hello` goes to each registered origin, each with that exact targetOrigin. */
export type GuestMessage =
  | { source: typeof GUEST; version: typeof VERSION; kind: 'hello' }
  | { source: typeof GUEST; version: typeof VERSION; kind: 'event'; event: WidgetEvent }
  | { source: typeof GUEST; version: typeof VERSION; kind: 'resize'; height: number }

/** From the parent to the iframe. `hello` answers the frame's hello: the frame then knows its parent. */
export type HostMessage =
  | { source: typeof HOST; version: typeof VERSION; kind: 'hello' }
  | { source: typeof HOST; version: typeof VERSION; kind: 'update'; options: Partial<WidgetOptions> }
  | { source: typeof HOST; version: typeof VERSION; kind: 'authCode'; code: string }
  | { source: typeof HOST; version: typeof VERSION; kind: 'theme'; theme?: WidgetOptions['theme']; brand?: WidgetOptions['brand'] }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export function isGuestMessage(data: unknown): data is GuestMessage {
  if (!isRecord(data) || data.source !== GUEST || data.version !== VERSION) return false
  if (data.kind === 'hello') return true
  if (data.kind === 'resize') return typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0
  return data.kind === 'event' && isRecord(data.event) && typeof data.event.name === 'string' && isRecord(data.event.payload)
}

/** The whole message is checked: a malformed one from the trusted window is ignored, never thrown on. */
export function isHostMessage(data: unknown): data is HostMessage {
  if (!isRecord(data) || data.source !== HOST || data.version !== VERSION) return false
  switch (data.kind) {
    case 'hello':
      return true
    case 'update':
      return isRecord(data.options)
    case 'authCode':
      return typeof data.code === 'string' && data.code.length > 0
    case 'theme':
      return (data.theme === undefined || typeof data.theme === 'string') && (data.brand === undefined || isRecord(data.brand))
    default:
      return false
  }
}
