// The switches that keep a WalletConnect client (sign-client / core 2.25) off every outside
// endpoint, each read from core's source:
// - relayUrl: the local relay (default wss://relay.walletconnect.org);
// - telemetryEnabled: false: the event client (pulse.walletconnect.org/batch) neither restores nor
//   submits events (core controllers/events.ts);
// - storage: given (memoryStorage.mjs): core's default in Node is a fresh in-memory store per
//   client, in a browser IndexedDB; a given one lets a restarted client restore from it;
// - customStoragePrefix: one per client, which also keys core's per-process singleton
//   (globalThis._walletConnectCore_<prefix>): two clients with one prefix in one process would
//   share a core, relayer and keys (DISABLE_GLOBAL_CORE=true turns the singleton off);
// - projectId: any string: the local relay does not check it.
// Verify (verify.walletconnect.org) has no option: see withoutVerify.
export function offlineOptions({ relayUrl, storage, prefix }) {
  return { projectId: 'sandbox', relayUrl, telemetryEnabled: false, storage, customStoragePrefix: prefix }
}

/**
 * Verify has no option (only IS_VITEST=true, a test-run flag, turns it off), so the two calls are
 * replaced. resolve: a wallet resolves every proposal and request; with no attestation from the dapp
 * (a dapp in Node sends none) it fetches https://verify.walletconnect.org/attestation/<hash>, with
 * one it fetches the server's public key; replaced, every dapp's verifyContext stays "UNKNOWN" with
 * the origin its metadata claims. register: a dapp in a browser loads a hidden iframe from
 * verify.walletconnect.org/v3/attestation before it publishes a proposal or a request, and offline
 * waits for its 5 s abort timer (measured in Chromium on 2026-11-27: connect() and each request() took 5.1 to 5.2 s;
 * replaced, 0.2 s and 0.04 s). A widget that runs offline, or against this relay, needs the same.
 */
export function withoutVerify(client) {
  client.core.verify.register = async () => ''
  client.core.verify.resolve = async () => undefined
  return client
}
