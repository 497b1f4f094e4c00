package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.LogDelta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrivacyLedgerTest {
    private static final Instant T0 = Instant.parse("2024-05-01T00:00:00Z");

    private static PrivacyLedger extremeLedger() {
        PrivacyLedger ledger = new PrivacyLedger();
        ledger.append(PrivacyEvent.of("gaussian-sign/v1", new PrivacyCost.Pure(40), T0,
                Map.of("level", 3.0, "radius", 0.125)));
        ledger.append(PrivacyEvent.of("gaussian/central", new PrivacyCost.Zcdp(1e-12), Instant.MIN,
                Map.of("sigma", 1e6, "sensitivity", Math.sqrt(2), "n", 123456789.0)));
        ledger.append(PrivacyEvent.of("purified", new PrivacyCost.Approximate(0.75, new LogDelta(-5000)), Instant.MAX));
        ledger.append(PrivacyEvent.of("gauß ε/σ ✓", new PrivacyCost.Pure(Double.MIN_VALUE), Instant.EPOCH,
                Map.of("negativeZero", -0.0, "tiny", Double.MIN_VALUE, "huge", -Double.MAX_VALUE)));
        ledger.append(PrivacyEvent.of("purified", new PrivacyCost.Approximate(0, new LogDelta(-Double.MAX_VALUE)),
                Instant.ofEpochSecond(-1, 999_999_999)));
        ledger.append(PrivacyEvent.of("gaussian/central", new PrivacyCost.Zcdp(0), T0.plusNanos(1)));
        ledger.append(PrivacyEvent.of("gaussian-sign/v1", new PrivacyCost.Pure(0.1), T0.plusSeconds(86_400),
                Map.of("level", 3.0)));
        return ledger;
    }

    @Test
    void roundTripKeepsEveryValueExactly() {
        PrivacyLedger ledger = extremeLedger();
        byte[] bytes = ledger.toBytes();
        PrivacyLedger back = PrivacyLedger.fromBytes(bytes);
        assertThat(back).isEqualTo(ledger);
        assertThat(back.events()).isEqualTo(ledger.events());
        assertThat(back.toBytes()).isEqualTo(bytes); // deterministic
        assertThat(back.events().get(2).cost()).isEqualTo(new PrivacyCost.Approximate(0.75, new LogDelta(-5000)));
        assertThat(back.events().get(0).cost()).isEqualTo(new PrivacyCost.Pure(40));
        assertThat(back.events().get(1).cost()).isEqualTo(new PrivacyCost.Zcdp(1e-12));
        assertThat(Double.doubleToRawLongBits(back.events().get(3).parameters().get("negativeZero")))
                .isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(back.events().get(1).time()).isEqualTo(Instant.MIN);
        assertThat(back.events().get(2).time()).isEqualTo(Instant.MAX);
        assertThat(back.isSealed()).isFalse();
    }

    @Test
    void encodingIsCompact() {
        // Names are stored once; per event: mechanism index 1 + tag 1 + ε 8 + time (5-byte seconds, 1-byte
        // nanos) 6 + parameter count 1 + (key 1 + value 8) = 26 bytes.
        PrivacyLedger l = new PrivacyLedger();
        for (int i = 0; i < 1000; i++) {
            l.append(PrivacyEvent.of("gaussian-sign/v1", new PrivacyCost.Pure(0.5), T0.plusSeconds(i), Map.of("level", i % 4 + 1.0)));
        }
        assertThat(l.toBytes().length).isLessThanOrEqualTo(26 * 1000 + 40);
    }

    @Test
    void roundTripOfEmptyAndSealedLedgers() {
        PrivacyLedger empty = new PrivacyLedger();
        assertThat(HexFormat.of().formatHex(empty.toBytes())).isEqualTo("504c01000000");
        assertThat(PrivacyLedger.fromBytes(empty.toBytes())).isEqualTo(empty);
        PrivacyLedger sealed = extremeLedger();
        sealed.seal(Instant.ofEpochSecond(1_700_000_000L, 5));
        PrivacyLedger back = PrivacyLedger.fromBytes(sealed.toBytes());
        assertThat(back.isSealed()).isTrue();
        assertThat(back.sealedAt()).contains(Instant.ofEpochSecond(1_700_000_000L, 5));
        assertThat(back).isEqualTo(sealed);
    }

    @Test
    void goldenBytesOfVersion1() {
        // "PL", version 1, flags 0; 2 strings "m" and "n"; 1 event: mechanism #0, tag 1 (pure), ε = 1.0
        // (0x3FF0000000000000), time 1 s (zig-zag 2) + 2 ns, 1 parameter: key #1, value 2.0 (0x4000000000000000).
        PrivacyLedger ledger = PrivacyLedger.of(List.of(
                PrivacyEvent.of("m", new PrivacyCost.Pure(1.0), Instant.ofEpochSecond(1, 2), Map.of("n", 2.0))));
        String golden = "504c0100" + "02" + "016d" + "016e" + "01" + "00" + "01" + "3ff0000000000000" + "0202" + "01" + "01"
                + "4000000000000000";
        assertThat(HexFormat.of().formatHex(ledger.toBytes())).isEqualTo(golden);
        assertThat(PrivacyLedger.fromBytes(HexFormat.of().parseHex(golden))).isEqualTo(ledger);
        // Sealed at −1 s (zig-zag 1), 0 ns; then zCDP (tag 2) and approximate (tag 3) costs.
        PrivacyLedger other = PrivacyLedger.of(List.of(
                PrivacyEvent.of("z", new PrivacyCost.Zcdp(0.5), Instant.EPOCH),
                PrivacyEvent.of("z", new PrivacyCost.Approximate(0, new LogDelta(-2)), Instant.EPOCH)));
        other.seal(Instant.ofEpochSecond(-1));
        String golden2 = "504c0101" + "0100" + "01" + "017a" + "02"
                + "00" + "02" + "3fe0000000000000" + "0000" + "00"
                + "00" + "03" + "0000000000000000" + "c000000000000000" + "0000" + "00";
        assertThat(HexFormat.of().formatHex(other.toBytes())).isEqualTo(golden2);
    }

    @Test
    void malformedInputIsRejectedWithAReason() {
        byte[] good = extremeLedger().toBytes();
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(null)).hasMessageContaining("required");
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(new byte[] {0x50, 0x4D, 1, 0, 0, 0})).hasMessageContaining("magic");
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(new byte[] {0x50, 0x4C, 2, 0, 0, 0})).hasMessageContaining("version 2");
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(new byte[] {0x50, 0x4C, 1, 4, 0, 0})).hasMessageContaining("flags");
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(trailing)).hasMessageContaining("trailing");
        // Every proper prefix is truncated input: always an IllegalArgumentException, never another exception.
        for (int n = 0; n < good.length; n++) {
            byte[] prefix = java.util.Arrays.copyOf(good, n);
            assertThatThrownBy(() -> PrivacyLedger.fromBytes(prefix)).as("prefix %d", n)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        // A NaN where ε should be is caught by the cost's own validation, and located.
        String hex = HexFormat.of().formatHex(PrivacyLedger.of(List.of(
                PrivacyEvent.of("m", new PrivacyCost.Pure(1.0), Instant.EPOCH))).toBytes());
        byte[] nan = HexFormat.of().parseHex(hex.replace("3ff0000000000000", "7ff8000000000000"));
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(nan)).hasMessageContaining("event 0").hasMessageContaining("epsilon")
                .hasMessageContaining("NaN");
        byte[] badTag = HexFormat.of().parseHex(hex.replace("00013ff0", "00093ff0"));
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(badTag)).hasMessageContaining("unknown cost tag 9");
        byte[] positiveLogDelta = HexFormat.of().parseHex(HexFormat.of().formatHex(PrivacyLedger.of(List.of(
                PrivacyEvent.of("m", new PrivacyCost.Approximate(1, new LogDelta(-2)), Instant.EPOCH))).toBytes())
                .replace("c000000000000000", "4000000000000000"));
        assertThatThrownBy(() -> PrivacyLedger.fromBytes(positiveLogDelta)).hasMessageContaining("log(delta)");
    }

    @Test
    void randomCorruptionsNeverEscapeAsOtherExceptions() {
        byte[] good = extremeLedger().toBytes();
        SplittableRandom r = new SplittableRandom(11);
        int decoded = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] bad = good.clone();
            int flips = 1 + r.nextInt(3);
            for (int k = 0; k < flips; k++) {
                bad[r.nextInt(bad.length)] ^= (byte) (1 << r.nextInt(8));
            }
            try {
                PrivacyLedger l = PrivacyLedger.fromBytes(bad);
                decoded++;
                assertThat(PrivacyLedger.fromBytes(l.toBytes())).isEqualTo(l); // whatever decodes is valid
            } catch (IllegalArgumentException expected) {
                // fine
            }
        }
        assertThat(decoded).isLessThan(3000);
    }

    @Test
    void totalsMatchReplayBeforeAndAfterSerialisation() {
        PrivacyLedger pure = new PrivacyLedger();
        for (int i = 0; i < 50; i++) {
            pure.append(PrivacyEvent.of("rr", new PrivacyCost.Pure(0.01 * (1 + i % 7)), T0.plusSeconds(i)));
        }
        PrivacyLedger pureBack = PrivacyLedger.fromBytes(pure.toBytes());
        for (PrivacyLedger l : List.of(pure, pureBack)) {
            assertThat(l.spentPure()).isEqualTo(((PrivacyCost.Pure) l.replay(Accountants.basicPure())).epsilon());
            assertThat(l.spentRho()).isEqualTo(((PrivacyCost.Zcdp) l.replay(Accountants.zcdp())).rho());
        }
        assertThat(pureBack.spentPure()).isEqualTo(pure.spentPure());
        // 50 events: sum over i of 0.01·(1 + i mod 7) = 0.01·(7·(1+…+7) + (1+2+…+1)) = 0.01·(196 + 1) = 1.97.
        assertThat(pure.spentPure()).isCloseTo(1.97, org.assertj.core.data.Offset.offset(1e-12));

        PrivacyLedger mixed = extremeLedger();
        assertThat(mixed.spentPure()).isInfinite();   // zCDP and (ε, δ) events have no pure bound
        assertThat(mixed.spentRho()).isInfinite();    // (ε, δ) events have no zCDP bound
        PrivacyLedger zcdp = new PrivacyLedger();
        zcdp.append(PrivacyEvent.of("rr", new PrivacyCost.Pure(1), T0));
        zcdp.append(PrivacyEvent.of("gaussian", new PrivacyCost.Zcdp(0.25), T0));
        assertThat(zcdp.spentPure()).isInfinite();
        assertThat(zcdp.spentRho()).isEqualTo(0.75); // 1²/2 + 0.25
        assertThat(PrivacyLedger.fromBytes(zcdp.toBytes()).replay(Accountants.zcdp())).isEqualTo(new PrivacyCost.Zcdp(0.75));
        assertThatThrownBy(() -> zcdp.replay(Accountants.basicPure())).hasMessageContaining("costs[1]");
        assertThatThrownBy(() -> zcdp.replay(null)).hasMessageContaining("accountant");
        assertThat(new PrivacyLedger().spentPure()).isZero();
        assertThat(new PrivacyLedger().spentRho()).isZero();
    }

    @Test
    void eventsAreAnImmutableSnapshotAndSealingIsOneWay() {
        PrivacyLedger l = new PrivacyLedger();
        l.append(PrivacyEvent.of("rr", new PrivacyCost.Pure(1), T0));
        List<PrivacyEvent> snapshot = l.events();
        l.append(PrivacyEvent.of("rr", new PrivacyCost.Pure(1), T0));
        assertThat(snapshot).hasSize(1);
        assertThat(l.size()).isEqualTo(2);
        assertThatThrownBy(() -> snapshot.add(snapshot.get(0))).isInstanceOf(UnsupportedOperationException.class);
        PrivacyLedger copy = l.copy();
        l.seal(T0.plusSeconds(5));
        l.seal(T0.plusSeconds(9)); // idempotent: the first seal time is kept
        assertThat(l.sealedAt()).contains(T0.plusSeconds(5));
        assertThatThrownBy(() -> l.append(PrivacyEvent.of("rr", new PrivacyCost.Pure(1), T0)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("sealed");
        assertThat(copy.isSealed()).isFalse();
        assertThat(copy).isNotEqualTo(l);
        assertThatThrownBy(() -> l.seal(null)).hasMessageContaining("at");
        assertThatThrownBy(() -> l.append(null)).hasMessageContaining("event");
        List<PrivacyEvent> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> PrivacyLedger.of(withNull)).hasMessageContaining("events[0]");
    }
}
