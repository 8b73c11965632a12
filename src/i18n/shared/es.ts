// The words several flows share, in es: the amount field's problems and the limits line
// (every key of shared/en-amount.ts and shared/en-limits.ts; the compiler checks).
import type { AmountKey } from './en-amount'
import type { LimitsKey } from './en-limits'

export const sharedEs: Record<AmountKey | LimitsKey, string> = {
  'amount.empty': 'Introduce un importe.',
  'amount.ambiguous': '¿Decimales o miles? Escribe el importe sin separador de miles, por ejemplo {example}.',
  'amount.format': 'Usa solo dígitos y un separador decimal, por ejemplo {example}.',
  'amount.negative': 'El importe debe ser mayor que cero.',
  'amount.zero': 'El importe debe ser mayor que cero.',
  'amount.decimals': '{token} admite como máximo {decimals} decimales.',
  'limits.settlement.instant': 'normalmente al instante',
  'limits.settlement.sameDay': 'normalmente el mismo día',
  'limits.settlement.nextDay': 'normalmente el siguiente día hábil',
  'limits.settlement.days': 'normalmente {n} días hábiles',
  'limits.settlement.range': 'normalmente de {from} a {to} días hábiles',
  'limits.settlement.underHours': 'normalmente en menos de {n} horas',
  'limits.settlement.other': 'liquidación: {label}',
  'limits.max': 'hasta {amount}',
  'limits.min': 'desde {amount}',
  'limits.belowMin': 'La transferencia más pequeña que acepta {rail} es de {amount}.',
  'limits.aboveMax': 'La transferencia más grande que acepta {rail} es de {amount}.',
}
