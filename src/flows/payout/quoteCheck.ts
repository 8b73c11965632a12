// The payout's quote against what the buyer asked, as the deposit's guard holds its quote to the
// amount (../deposit/guard.ts): the service prices, it never chooses how much leaves the wallet.
// Pure; the quoting effect runs it on every answer (a re-quote too), before the machine sees it.
import type { PayoutQuote } from '../../api/payout'
import { compareDecimal, toBaseUnits } from '../../lib/decimal'
import type { AskRule, QuoteAsk } from './base'

/**
 * A crypto ask is exactly what leaves the wallet (compared in the token's base units); a fiat ask
 * ("this much must arrive") arrives in full at least. Then the created payout's depositAmount is
 * held to the quote's cryptoAmount (transfer.ts checkPayout).
 */
export function checkQuote(
  ask: Pick<QuoteAsk, 'kind' | 'amount'>,
  quote: Pick<PayoutQuote, 'cryptoAmount' | 'fiatAmount'>,
  decimals: number,
): { ok: true } | { ok: false; rule: AskRule } {
  if (ask.kind === 'fiat') return compareDecimal(quote.fiatAmount, ask.amount) < 0 ? { ok: false, rule: 'ask.fiat' } : { ok: true }
  try {
    if (toBaseUnits(quote.cryptoAmount, decimals) === toBaseUnits(ask.amount, decimals)) return { ok: true }
  } catch {
    // more decimals than the token has: no amount a wallet could send
  }
  return { ok: false, rule: 'ask.crypto' }
}
