// The one-off bank deposit's strings in English, loaded with the flow (see en.ts); and the limits
// line ("SEPA Instant · usually instant · up to 100,000 EUR"), which the payout flow shows too.
export const enBankDeposit = {
  'bankDeposit.reference': 'Payment reference',
  'bankDeposit.referenceWarning':
    'Put this reference on your transfer exactly as shown. A transfer without it, or with it changed, has to be matched by hand and can take days.',
  'bankDeposit.amount': 'Amount to send',
  'bankDeposit.amountHint': 'Send exactly this amount in one transfer. If a different amount arrives, you get stablecoins for what arrived.',
  'bankDeposit.iban': 'IBAN',
  'bankDeposit.bic': 'BIC',
  'bankDeposit.swiftCode': 'BIC / SWIFT',
  'bankDeposit.bankName': 'Bank',
  'bankDeposit.accountName': 'Account holder',
  'bankDeposit.accountNumber': 'Account number',
  'bankDeposit.sortCode': 'Sort code',
  'bankDeposit.routingNumber': 'Routing number',
  'bankDeposit.clabe': 'CLABE',
  'bankDeposit.pixKey': 'PIX key',
  'bankDeposit.pixPayload': 'PIX copy-and-paste code',
  'bankDeposit.pixQr': 'PIX QR code to pay {amount}',
  'bankDeposit.pixQrHint': 'Scan the code with your banking app, or copy the code above and paste it there.',
} as const

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

export type BankDepositKey = keyof typeof enBankDeposit
export type LimitsKey = keyof typeof enLimits
