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

    /** Open identities. */
    Open OPEN = new Open();

    /** Whether the record's headers prove {@code deviceId}. */
    boolean verifies(String deviceId, Headers headers);

    /** Open: no proof required. */
    record Open() implements DeviceAuthentication {
        @Override
        public boolean verifies(String deviceId, Headers headers) {
            return true;
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
    }
}
