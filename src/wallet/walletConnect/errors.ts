// What a WalletConnect request can end in, each error with an EIP-1193 `code`: the code is what
// errors/WalletError.ts (walletProblemOf) and viem's custom transport read, so a phone's refusal
// reaches the flows exactly as an injected wallet's does. None of these is retried here: a request
// goes to the relay once.
import { WidgetError } from '../../errors/WidgetError'

export class WalletConnectError extends WidgetError {
  override name = 'WalletConnectError'
  readonly code: number
  constructor(code: number, shortMessage: string, options: { cause?: unknown; details?: string } = {}) {
    super(shortMessage, options)
    this.code = code
  }
}

/** The buyer said no on the phone (the wallet's 4001, or WalletConnect's 5000 to 5003): EIP-1193's 4001. */
export class WalletConnectRejected extends WalletConnectError {
  override name = 'WalletConnectRejected'
  constructor(cause?: unknown) {
    super(4001, 'The request was rejected in the wallet', { cause })
  }
}

/**
 * The phone did not answer in time. The request stays with the wallet, which may still answer it:
 * it is never sent again from here. -32002 (EIP-1474 "resource unavailable", what a wallet answers
 * while a request of the same kind is pending): the flows read it as "a request is waiting in your
 * wallet", and viem does not retry it.
 */
export class WalletConnectTimeout extends WalletConnectError {
  override name = 'WalletConnectTimeout'
  readonly method: string
  constructor(method: string, afterMs: number, cause?: unknown) {
    super(-32002, 'The wallet did not answer in time', {
      cause,
      details: `${method}: no answer after ${Math.round(afterMs / 1000)} s; the request is still with the wallet`,
    })
    this.method = method
  }
}

/**
 * The session is over: the phone ended it, it expired, or the widget disconnected. EIP-1193's 4900
 * (disconnected). `by` says who ended it.
 */
export class WalletConnectSessionEnded extends WalletConnectError {
  override name = 'WalletConnectSessionEnded'
  readonly by: 'wallet' | 'expiry' | 'widget'
  constructor(by: 'wallet' | 'expiry' | 'widget', cause?: unknown) {
    super(4900, 'The WalletConnect session has ended', { cause, details: `ended by the ${by}` })
    this.by = by
  }
}

/** The relay could not take the request (offline, or the publish failed): 4900, as a disconnected wallet. */
export class WalletConnectUnreachable extends WalletConnectError {
  override name = 'WalletConnectUnreachable'
  constructor(cause?: unknown) {
    super(4900, 'The WalletConnect relay could not be reached', { cause })
  }
}

/** What the session does not offer (a method the wallet did not approve, a read it does not serve): 4200. */
export class WalletConnectUnsupported extends WalletConnectError {
  override name = 'WalletConnectUnsupported'
  constructor(method: string) {
    super(4200, 'The wallet does not offer this method over WalletConnect', { details: method })
  }
}

/** Any other answer of the wallet's, with its own code (4902 for a chain it does not know, 5100 for no chain in common…). */
export class WalletConnectWalletError extends WalletConnectError {
  override name = 'WalletConnectWalletError'
  readonly data?: unknown
  constructor(code: number, message: string, data?: unknown) {
    // The wallet's words, as the details: never the request or a URI.
    super(code, 'The wallet answered with an error', { details: `${code}: ${message.slice(0, 200)}` })
    this.data = data
  }
}

const REJECTED = new Set([4001, 5000, 5001, 5002, 5003])

/** Any failure of a request or of a proposal's approval, as one of the errors above. */
export function walletConnectErrorOf(error: unknown, method: string, afterMs: number): WalletConnectError {
  if (error instanceof WalletConnectError) return error
  const { code, message = '', data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown }
  const text = typeof message === 'string' ? message : ''
  if (typeof code === 'number' && REJECTED.has(code)) return new WalletConnectRejected(error)
  // sign-client's own ends: a request or proposal past its expiry (a proposal's with code 0).
  if (/expired/i.test(text)) return new WalletConnectTimeout(method, afterMs, error)
  // 6000 (USER_DISCONNECTED): what sign-client fails a pending request with when the phone ends the session.
  if (code === 6000 || /session topic doesn't exist|recently deleted/i.test(text)) return new WalletConnectSessionEnded('wallet', error)
  if (typeof code === 'number' && code !== 0) return new WalletConnectWalletError(code, text, data)
  return new WalletConnectUnreachable(error)
}
