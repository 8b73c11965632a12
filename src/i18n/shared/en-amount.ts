// The amount field's problems in English: they come with the field (components/AmountField.tsx),
// which every screen that reads an amount shows them in, not with every flow's first load.
export const enAmount = {
  'amount.empty': 'Enter an amount.',
  'amount.ambiguous': 'A decimal mark, or thousands? Type it without thousands separators, for example {example}.',
  'amount.format': 'Use digits and one decimal mark only, for example {example}.',
  'amount.negative': 'The amount must be above zero.',
  'amount.zero': 'The amount must be above zero.',
  'amount.decimals': '{token} allows at most {decimals} decimals.',
} as const

export type AmountKey = keyof typeof enAmount
