package io.privacygateway.topology.ingest;

import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.topology.validate.RejectReason;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Builds rejection records of <b>bounded size</b>, whatever the rejected record was: copied key and value
 * bytes are cut to {@link #MAX_KEY_BYTES} and {@link #MAX_VALUE_BYTES} (their original sizes are recorded),
 * and every attacker-chosen string (ids, messages) is cut to {@link #MAX_STRING}, so a rejection always fits
 * the producer's request size and one hostile record can never stop the stream. Raw values of central reports
 * are never copied.
 */
public final class Rejections {
    public static final int MAX_KEY_BYTES = 1024;
    public static final int MAX_VALUE_BYTES = 16 * 1024;
    public static final int MAX_STRING = 1024;
    /** An upper bound on the serialized size of any rejection record (Avro body). */
    public static final int MAX_RECORD_BYTES = MAX_KEY_BYTES + MAX_VALUE_BYTES + 6 * (MAX_STRING * 4 + 8) + 256;

    private Rejections() {}

    /**
     * A rejection record.
     *
     * @param copyValue whether the original value may be copied (never for central reports)
     */
    public static Rejection build(RejectReason reason, String message, String workloadId, String deviceId,
            String topic, int partition, long offset, byte[] key, byte[] value, boolean copyValue, long streamTime) {
        return Rejection.newBuilder()
                .setReasonCode(RejectionReason.valueOf(reason.name()))
                .setMessage(cut(message))
                .setWorkloadId(workloadId == null ? null : cut(workloadId))
                .setDeviceId(deviceId == null ? null : cut(deviceId))
                .setOriginalTopic(cut(topic))
                .setOriginalPartition(partition)
                .setOriginalOffset(offset)
                .setOriginalKey(key == null ? null : ByteBuffer.wrap(prefix(key, MAX_KEY_BYTES)))
                .setOriginalKeySize(key == null ? null : key.length)
                .setOriginalValue(value == null || !copyValue ? null : ByteBuffer.wrap(prefix(value, MAX_VALUE_BYTES)))
                .setOriginalValueSize(value == null ? null : value.length)
                .setRejectedAtStreamTime(Math.max(0, streamTime))
                .build();
    }

    /** The record key of a rejection: the original key, cut to {@link #MAX_KEY_BYTES}. */
    public static byte[] key(byte[] originalKey) {
        return originalKey == null ? null : prefix(originalKey, MAX_KEY_BYTES);
    }

    static String cut(String s) {
        if (s == null) {
            return "";
        }
        if (s.length() <= MAX_STRING) {
            return s;
        }
        int end = MAX_STRING;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "…";
    }

    private static byte[] prefix(byte[] b, int max) {
        return b.length <= max ? b : Arrays.copyOf(b, max);
    }
}
