// A payout beneficiary field's problem, with the numbers its words take: what the flow finds
// (flows/payout) and what its words say (errors/payoutWords.ts). A type only, in the layer both read.
export type FieldProblem =
  | {
      kind:
        | 'required'
        | 'choose'
        | 'country'
        | 'currency'
        | 'refused'
        | 'ibanFormat'
        | 'ibanChecksum'
        | 'routingFormat'
        | 'routingChecksum'
        | 'swift'
        | 'evmAddress'
        | 'evmChecksum'
        | 'evmZero'
        | 'sortCode'
        | 'ukAccount'
        | 'clabeFormat'
        | 'clabeChecksum'
        | 'cpfChecksum'
        | 'cnpjChecksum'
        | 'pixKey'
        | 'pixPhone'
        | 'phone'
    }
  | { kind: 'tooLong' | 'accountText'; max: number }
  | { kind: 'accountDigits'; min: number; max: number }
  | { kind: 'ibanCountry'; country: string }
  | { kind: 'ibanLength'; country: string; length: number; actual: number }
