package io.privacygateway.topology.state;

import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.budget.DeviceLedgerCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** One serde per state type (no {@code byte[]} handled outside a serde). */
public final class StateSerdes {
    private StateSerdes() {}

    /** A serde from an encoder and a decoder (null stays null). */
    public static <T> Serde<T> of(Function<T, byte[]> encode, Function<byte[], T> decode) {
        return Serdes.serdeFrom((topic, v) -> v == null ? null : encode.apply(v),
                (topic, b) -> b == null ? null : decode.apply(b));
    }

    public static final Serde<WindowKey> WINDOW_KEY = of(k -> k.asString().getBytes(StandardCharsets.UTF_8),
            b -> WindowKey.parse(new String(b, StandardCharsets.UTF_8)));

    public static final Serde<WindowAggregate> WINDOW_AGGREGATE = of(WindowAggregate::toBytes, WindowAggregate::fromBytes);

    public static final Serde<HorizonKey> HORIZON_KEY = of(k -> k.asString().getBytes(StandardCharsets.UTF_8),
            b -> HorizonKey.parse(new String(b, StandardCharsets.UTF_8)));

    /** A device's ledger: {@link DeviceLedgerCodec}, bounded when written. */
    public static final Serde<DeviceLedger> DEVICE_LEDGER = of(DeviceLedgerCodec::encode, DeviceLedgerCodec::decode);

    public static final Serde<String> STRING = Serdes.String();

    public static final Serde<long[]> LONGS = of(StateSerdes::longsToBytes, StateSerdes::bytesToLongs);

    static byte[] longsToBytes(long[] v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length);
        for (long x : v) {
            b.putLong(x);
        }
        return b.array();
    }

    static long[] bytesToLongs(byte[] bytes) {
        if (bytes.length % 8 != 0) {
            throw new IllegalArgumentException("not a long array: " + bytes.length + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long[] v = new long[bytes.length / 8];
        for (int i = 0; i < v.length; i++) {
            v[i] = b.getLong();
        }
        return v;
    }
}
