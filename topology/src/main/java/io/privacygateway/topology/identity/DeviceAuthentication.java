package io.privacygateway.topology.identity;

import io.privacygateway.schemas.identity.DeviceCredential;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * How the gateway establishes which device sent a report. Either way the record key must equal the report's
 * device id (the gateway checks it) and the report must be on that id's partition.
 *
 * <ul>
 *   <li>{@link Open}: device ids are whatever reports claim. Anyone who can write the report topic can report
 *       under any id (and spend that id's budget), and a device can try many ids to pick favourable public
 *       coins. Use it only when the report topic's writers are trusted (ACLs) or for tests and demos.
 *   <li>{@link Enrolled}: every report carries a {@link DeviceCredential} (a MAC over its device id issued at
 *       enrollment); reports without a valid one are rejected {@code UNAUTHENTICATED}.
 * </ul>
 */
public sealed interface DeviceAuthentication permits DeviceAuthentication.Open, DeviceAuthentication.Enrolled {

    /** Open identities, with no declared crowd (answers carry no amplified guarantee). */
    Open OPEN = new Open(0);

    /** Whether the record's headers prove {@code deviceId}. */
    boolean verifies(String deviceId, Headers headers);

    /**
     * How many of an answer's {@code n} reports the amplified (ε, δ) may count as the crowd that hides one device's
     * reports, or 0 if no amplified figure may be published: every report when identities are enrolled (each comes
     * from a distinct enrolled device); with open identities, the operator's declared lower bound on honest reports
     * per answer (none if it exceeds {@code n}, which shows the declaration does not hold for this answer), else
     * nothing: fresh ids an attacker controls would otherwise count as the crowd (issue 27 item 6).
     */
    long vouchedCrowd(long n);

    /** Where the crowd of {@link #vouchedCrowd} comes from, as published with the amplified figure. */
    String crowdBasis();

    /**
     * Open: no proof required.
     *
     * @param declaredHonestReports the operator's declared lower bound on the honest reports (from devices the
     *     attacker does not control) in every answer, or 0 for none; amplified figures are published only with
     *     a declaration, computed for that many reports
     */
    record Open(long declaredHonestReports) implements DeviceAuthentication {
        public Open {
            if (declaredHonestReports < 0) {
                throw new IllegalArgumentException("declaredHonestReports must be >= 0, got " + declaredHonestReports);
            }
        }

        @Override
        public boolean verifies(String deviceId, Headers headers) {
            return true;
        }

        @Override
        public long vouchedCrowd(long n) {
            return declaredHonestReports > 0 && n >= declaredHonestReports ? declaredHonestReports : 0;
        }

        @Override
        public String crowdBasis() {
            return "declared-honest-reports";
        }
    }

    /**
     * Enrolled devices only.
     *
     * @param keys enrollment keys by key id (each at least {@value DeviceCredential#MIN_KEY_BYTES} bytes); several
     *     keys allow rotation
     */
    record Enrolled(Map<String, byte[]> keys) implements DeviceAuthentication {
        public Enrolled {
            if (keys == null || keys.isEmpty()) {
                throw new IllegalArgumentException("enrollment needs at least one key");
            }
            Map<String, byte[]> copy = new HashMap<>();
            keys.forEach((id, k) -> {
                DeviceCredential.checkKey(id, k);
                copy.put(id, k.clone());
            });
            keys = Map.copyOf(copy);
        }

        @Override
        public boolean verifies(String deviceId, Headers headers) {
            Header h = headers == null ? null : headers.lastHeader(DeviceCredential.HEADER);
            return h != null && DeviceCredential.verify(h.value(), deviceId, keys);
        }

        @Override
        public long vouchedCrowd(long n) {
            return n;
        }

        @Override
        public String crowdBasis() {
            return "enrolled-devices";
        }
    }
}
