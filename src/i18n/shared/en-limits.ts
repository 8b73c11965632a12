// Reference data on screen, in English: the limits line ("SEPA Instant · usually instant · up to
// 100,000 EUR"), which the bank deposit and the payout show. Loaded with those flows.
export const enLimits = {
  'limits.settlement.instant': 'usually instant',
  'limits.settlement.sameDay': 'usually the same day',
  'limits.settlement.nextDay': 'usually the next business day',
  'limits.settlement.days': 'usually {n} business days',
  'limits.settlement.range': 'usually {from} to {to} business days',
  'limits.settlement.underHours': 'usually under {n} hours',
  'limits.settlement.other': 'settles: {label}',
  'limits.max': 'up to {amount}',
  'limits.min': 'from {amount}',
  'limits.belowMin': 'The smallest transfer {rail} takes is {amount}.',
  'limits.aboveMax': 'The largest transfer {rail} takes is {amount}.',
} as const

export type LimitsKey = keyof typeof enLimits
