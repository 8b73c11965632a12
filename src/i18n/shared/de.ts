// The words several flows share, in de: the amount field's problems and the limits line
// (every key of shared/en-amount.ts and shared/en-limits.ts; the compiler checks).
import type { AmountKey } from './en-amount'
import type { LimitsKey } from './en-limits'

export const sharedDe: Record<AmountKey | LimitsKey, string> = {
  'amount.empty': 'Geben Sie einen Betrag ein.',
  'amount.ambiguous': 'Dezimalzeichen oder Tausender? Geben Sie den Betrag ohne Tausendertrennzeichen ein, zum Beispiel {example}.',
  'amount.format': 'Verwenden Sie nur Ziffern und ein Dezimalzeichen, zum Beispiel {example}.',
  'amount.negative': 'Der Betrag muss größer als null sein.',
  'amount.zero': 'Der Betrag muss größer als null sein.',
  'amount.decimals': '{token} erlaubt höchstens {decimals} Nachkommastellen.',
  'limits.settlement.instant': 'meist sofort',
  'limits.settlement.sameDay': 'meist am selben Tag',
  'limits.settlement.nextDay': 'meist am nächsten Werktag',
  'limits.settlement.days': 'meist {n} Werktage',
  'limits.settlement.range': 'meist {from} bis {to} Werktage',
  'limits.settlement.underHours': 'meist unter {n} Stunden',
  'limits.settlement.other': 'Abwicklung: {label}',
  'limits.max': 'bis {amount}',
  'limits.min': 'ab {amount}',
  'limits.belowMin': 'Die kleinste Überweisung, die {rail} annimmt, ist {amount}.',
  'limits.aboveMax': 'Die größte Überweisung, die {rail} annimmt, ist {amount}.',
}
