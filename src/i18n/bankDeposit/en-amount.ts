// The bank deposit's first screen in English (where and how much): loaded with the flow's entry.
export const enBankDepositAmount = {
  'bankDeposit.amountHeading': 'How much do you want to pay?',
  'bankDeposit.loadingOptions': 'Loading the ways to pay…',
  'bankDeposit.country': 'Country of your bank account',
  'bankDeposit.countryChoose': 'Choose a country',
  'bankDeposit.countryRequired': 'Choose the country of the bank account you pay from.',
  'bankDeposit.currency': 'Currency',
  'bankDeposit.amountLabel': 'Amount you send',
  'bankDeposit.amountFixed': 'This amount is fixed: your first request used it, and a retry must ask for the same.',
  'bankDeposit.decimals': 'Use at most 2 decimals.',
  'bankDeposit.submit': 'Get bank details',
  'bankDeposit.creating': 'Getting the bank details…',
  'bankDeposit.notOffered': 'A one-off transfer for an exact amount is not available for bank accounts in {country}.',
  'bankDeposit.virtualAccount':
    'You can get standing bank details instead, on an account our banking partner holds: every transfer you send to them with your reference reaches your wallet as stablecoins, less a fee. It settles in hours or days.',
  'bankDeposit.openVirtualAccount': 'Get standing bank details',
  'bankDeposit.nothingOffered': 'We cannot take bank transfers from {country} yet.',
  'bankDeposit.noRail': 'There is no one-off bank transfer for {currency}. Choose another currency, or get standing bank details instead.',
} as const
