import type { BankDepositKey } from '../../i18n/en-bankDeposit'
import type { LimitsKey } from '../../i18n/shared/en-limits'
import { type MessageKey, type Params, t } from '../../i18n/i18n'

// The flow's English strings arrive with its chunk; the catalogs' key type lists them too.
export const bt = (key: BankDepositKey | LimitsKey, params?: Params) => t(key as MessageKey, params)

/** A country's name in the buyer's language (its code where the browser has no names). */
export function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code
  } catch {
    return code
  }
}
