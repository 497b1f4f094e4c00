package io.privacygateway.client;

/**
 * Counters of a device's reports ({@link Client#stats()}). {@code accepted}, {@code rejected} and {@code dropped}
 * are durable (kept in the device store across restarts, since it was created).
 *
 * @param queued reports waiting to be sent (on disk)
 * @param queuedBytes their encoded size
 * @param accepted reports the gateway's front door accepted (including resends answered as duplicates)
 * @param rejected reports refused for good (the gateway's reason, a revoked credential, a malformed batch)
 * @param dropped reports removed unsent because their window could no longer accept them
 * @param failedAttempts batch attempts that failed and were retried, since this client started
 * @param lastFailure the reason of the last failed attempt, empty if none
 */
public record ClientStats(int queued, long queuedBytes, long accepted, long rejected, long dropped,
        long failedAttempts, String lastFailure) {}
