// The words several flows share, in fr: the amount field's problems and the limits line
// (every key of shared/en-amount.ts and shared/en-limits.ts; the compiler checks).
import type { AmountKey } from './en-amount'
import type { LimitsKey } from './en-limits'

export const sharedFr: Record<AmountKey | LimitsKey, string> = {
  'amount.empty': 'Saisissez un montant.',
  'amount.ambiguous': 'Décimales ou milliers ? Saisissez le montant sans séparateur de milliers, par exemple {example}.',
  'amount.format': 'Utilisez uniquement des chiffres et un séparateur décimal, par exemple {example}.',
  'amount.negative': 'Le montant doit être supérieur à zéro.',
  'amount.zero': 'Le montant doit être supérieur à zéro.',
  'amount.decimals': '{token} accepte au plus {decimals} décimales.',
  'limits.settlement.instant': 'en général instantané',
  'limits.settlement.sameDay': 'en général le jour même',
  'limits.settlement.nextDay': 'en général le jour ouvré suivant',
  'limits.settlement.days': 'en général {n} jours ouvrés',
  'limits.settlement.range': 'en général {from} à {to} jours ouvrés',
  'limits.settlement.underHours': 'en général moins de {n} heures',
  'limits.settlement.other': 'règlement : {label}',
  'limits.max': "jusqu'à {amount}",
  'limits.min': 'à partir de {amount}',
  'limits.belowMin': 'Le plus petit virement accepté par {rail} est de {amount}.',
  'limits.aboveMax': 'Le plus gros virement accepté par {rail} est de {amount}.',
}
