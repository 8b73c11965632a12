// The words several flows share, in pt-BR: the amount field's problems and the limits line
// (every key of shared/en-amount.ts and shared/en-limits.ts; the compiler checks).
import type { AmountKey } from './en-amount'
import type { LimitsKey } from './en-limits'

export const sharedPtBR: Record<AmountKey | LimitsKey, string> = {
  'amount.empty': 'Informe um valor.',
  'amount.ambiguous': 'Decimais ou milhar? Digite o valor sem separador de milhar, por exemplo {example}.',
  'amount.format': 'Use apenas dígitos e um separador decimal, por exemplo {example}.',
  'amount.negative': 'O valor deve ser maior que zero.',
  'amount.zero': 'O valor deve ser maior que zero.',
  'amount.decimals': '{token} aceita no máximo {decimals} casas decimais.',
  'limits.settlement.instant': 'geralmente na hora',
  'limits.settlement.sameDay': 'geralmente no mesmo dia',
  'limits.settlement.nextDay': 'geralmente no próximo dia útil',
  'limits.settlement.days': 'geralmente {n} dias úteis',
  'limits.settlement.range': 'geralmente de {from} a {to} dias úteis',
  'limits.settlement.underHours': 'geralmente em menos de {n} horas',
  'limits.settlement.other': 'liquidação: {label}',
  'limits.max': 'até {amount}',
  'limits.min': 'a partir de {amount}',
  'limits.belowMin': 'A menor transferência que o {rail} aceita é de {amount}.',
  'limits.aboveMax': 'A maior transferência que o {rail} aceita é de {amount}.',
}
