// The contract, once: partner-api.md plus assumed-contract.md where the former says "not shown".
// Objects are non-strict: unknown fields are dropped, a missing field we rely on fails the parse.
// One module per flow's calls, so a flow's chunk carries its own schemas and not the others'
// (issue 19); the building blocks and the error envelope, which every answer may need, are shared.
export * from './schemas-common'
export * from './schemas-deposit'
export * from './schemas-card'
export * from './schemas-onboarding'
