// The switches that keep a WalletConnect client (sign-client / core 2.25) off every outside
// endpoint, each read from core's source:
// - relayUrl: the local relay (default wss://relay.walletconnect.org);
// - telemetryEnabled: false: the event client (pulse.walletconnect.org/batch) neither restores nor
//   submits events (core controllers/events.ts);
// - storage: given, so nothing is written outside the process and a restart can restore from it;
// - customStoragePrefix: one per client, which also keys core's per-process singleton
//   (globalThis._walletConnectCore_<prefix>): two clients with one prefix in one process would
//   share a core, relayer and keys (DISABLE_GLOBAL_CORE=true turns the singleton off);
// - projectId: any string: the local relay does not check it.
// Verify (verify.walletconnect.org) has no option: see withoutVerify.
export function offlineOptions({ relayUrl, storage, prefix }) {
  return { projectId: 'sandbox', relayUrl, telemetryEnabled: false, storage, customStoragePrefix: prefix }
}

/**
 * A wallet resolves every proposal and request through Verify: with no attestation from the dapp (a
 * dapp in Node sends none) it fetches https://verify.walletconnect.org/attestation/<hash> (5 s
 * abort), with one it fetches the server's public key. No option turns it off (only
 * IS_VITEST=true, a test-run flag), so the sandbox replaces the two calls: no attestation, and
 * every dapp's verifyContext stays "UNKNOWN" with the origin its metadata claims.
 */
export function withoutVerify(client) {
  client.core.verify.register = async () => ''
  client.core.verify.resolve = async () => undefined
  return client
}
