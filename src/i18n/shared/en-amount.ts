// The amount field's problems in English: they come with the field (components/AmountField.tsx),
// which every screen that reads an amount shows them in, not with every flow's first load.
export const enAmount = {
  'amount.empty': 'Enter an amount.',
  'amount.ambiguous': 'That mark could be a decimal point or a thousands separator. Type the amount without thousands separators, for example {example}.',
  'amount.refused':
    'The service did not accept this amount: it may be too small once the fees are taken, or outside what this route takes. Try a different amount.',
  'amount.format': 'Use digits and one decimal mark only, for example {example}.',
  'amount.negative': 'The amount must be above zero.',
  'amount.zero': 'The amount must be above zero.',
  'amount.decimals': '{token} allows at most {decimals} decimals.',
} as const

export type AmountKey = keyof typeof enAmount
