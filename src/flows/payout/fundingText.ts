// What a funding problem is about: the chain, the token and the amount the words name (the words
// themselves are in errors/words.ts, for the screen and the `error` event alike).
import type { SendContext } from '../../errors/words'
import { formatAmount } from '../../lib/decimal'
import type { PayoutRecord } from './record'

export function fundingContext(record: PayoutRecord, chain: string, locale: string): SendContext {
  return { flow: 'payout', chain, symbol: record.symbol, amount: record.depositAmount, format: (v) => formatAmount(v, locale) }
}
