package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The influence of one report computed from a {@link LocalProtocol} itself, without a formula: every
 * candidate payload is {@link LocalProtocol#accumulate accumulated} into a copy of a background window, the
 * window is {@link LocalProtocol#estimate estimated}, and the estimates of two payloads are compared. It is how
 * a mechanism without a closed form gets a poisoning bound, and how the closed forms of
 * {@link MechanismInfluence} are checked.
 *
 * <p><b>Why a background is enough.</b> For an estimator that is affine in the aggregate state for a fixed
 * window size {@code n} (every local mechanism here except the tree), the estimate of a window is
 * {@code const(n) + (1/n) Σ_reports L·φ(report)}, so {@code n·(estimate(B + y) − estimate(B + y'))} is the same
 * for every background {@code B}, and the empty background ({@code n = 1}) gives it. {@link #affineOn} checks
 * that premise against a second background; for the tree it fails across levels (each level is normalised by
 * its own report count) and holds within a level when the level counts are fixed.
 *
 * <p><b>Rejected payloads.</b> A payload {@code accumulate} refuses does not count in any window; the
 * computation checks that such a refusal leaves the state untouched (else it throws), so the influence computed
 * over the accepted payloads covers every report the gateway can count.
 *
 * <p>Cost: one {@code accumulate} and one {@code estimate} per payload. Exhaustive enumeration
 * ({@link #allPayloads}) is limited to {@value #MAX_PAYLOADS} byte strings (payloads of at most two bytes).
 */
public final class ProtocolInfluence {
    /** The most payloads {@link #allPayloads} enumerates: every byte string of at most two bytes. */
    public static final int MAX_PAYLOADS = 1 << 16;

    private final LocalProtocol protocol;

    public ProtocolInfluence(LocalProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
    }

    public LocalProtocol protocol() {
        return protocol;
    }

    /**
     * Every byte string of the protocol's payload length, in lexicographic order.
     *
     * @throws IllegalArgumentException if there are more than {@value #MAX_PAYLOADS}
     */
    public List<byte[]> allPayloads() {
        int bytes = protocol.payloadBytes();
        if (bytes > 2) {
            throw new IllegalArgumentException("payloads of " + bytes + " bytes are too many to enumerate (at most "
                    + MAX_PAYLOADS + "); give the candidate payloads explicitly");
        }
        int count = 1 << (8 * bytes);
        List<byte[]> out = new ArrayList<>(count);
        for (int v = 0; v < count; v++) {
            byte[] p = new byte[bytes];
            for (int i = bytes - 1, w = v; i >= 0; i--, w >>>= 8) {
                p[i] = (byte) w;
            }
            out.add(p);
        }
        return out;
    }

    /**
     * The other reports of a window: their aggregate state and number ({@code >= 0}).
     *
     * @param state the aggregate of {@code reports} accepted reports (copied)
     * @param reports their number
     */
    public record Background(long[] state, long reports) {
        public Background {
            state = Require.nonNull("state", state).clone();
            Require.inRange("reports", reports, 0, Long.MAX_VALUE - 1);
        }

        @Override
        public long[] state() {
            return state.clone();
        }
    }

    /** The empty window: no other report ({@code n = 1} once the report is added). */
    public Background emptyBackground() {
        return new Background(new long[protocol.stateLength()], 0);
    }

    /**
     * A background of {@code reports} honest reports of {@code value} (randomized with seeded, public
     * randomness; for checks only).
     */
    public Background honestBackground(int value, int reports, long seed) {
        long[] state = new long[protocol.stateLength()];
        SeededRandomBits secret = new SeededRandomBits(seed);
        for (int i = 0; i < reports; i++) {
            ReportCoordinates c = new ReportCoordinates("background-" + seed + "-" + i, 0, 0);
            if (!protocol.accumulate(protocol.randomize(value, c, secret), c, state)) {
                throw new IllegalStateException("the protocol rejected its own randomizer's payload");
            }
        }
        return new Background(state, reports);
    }

    /**
     * The contributions of the accepted payloads among {@code payloads} for a report with these coordinates
     * in the background window: {@code n·mean_j} of every level {@code j} of the window's estimate,
     * {@code n = background.reports() + 1}. Differences between two of them are {@code n} times the change of
     * the window's per-level estimate when one payload replaces the other.
     *
     * @throws IllegalStateException if {@code accumulate} refuses a payload but changes the state
     */
    public Contributions contributions(ReportCoordinates coordinates, List<byte[]> payloads, Background background) {
        Require.nonNull("coordinates", coordinates);
        Require.nonNull("payloads", payloads);
        Require.nonNull("background", background);
        long[] base = background.state;
        if (base.length != protocol.stateLength()) {
            throw new IllegalArgumentException("background state must have length " + protocol.stateLength()
                    + ", got " + base.length);
        }
        long n = background.reports + 1;
        List<byte[]> accepted = new ArrayList<>();
        List<double[][]> values = new ArrayList<>();
        int rejected = 0;
        LocalEstimator estimator = LocalEstimators.of(protocol);
        for (byte[] payload : payloads) {
            long[] state = base.clone();
            if (!protocol.accumulate(payload.clone(), coordinates, state)) {
                if (!Arrays.equals(state, base)) {
                    throw new IllegalStateException("accumulate refused a payload but changed the state");
                }
                rejected++;
                continue;
            }
            accepted.add(payload.clone());
            values.add(scaled(estimator.estimate(state, n), n));
        }
        return new Contributions(accepted, values, rejected);
    }

    static double[][] scaled(LocalEstimate est, long n) {
        double[][] out = new double[est.levels().size()][];
        for (int j = 0; j < out.length; j++) {
            double[] mean = est.levels().get(j).mean();
            out[j] = new double[mean.length];
            for (int q = 0; q < mean.length; q++) {
                out[j][q] = n * mean[q];
            }
        }
        return out;
    }

    /**
     * The accepted payloads and their contributions ({@code [payload][level][q]}), and how many candidates
     * {@code accumulate} refused.
     */
    public record Contributions(List<byte[]> accepted, List<double[][]> values, int rejected) {
        public Contributions {
            accepted = List.copyOf(accepted);
            values = List.copyOf(values);
        }

        /**
         * The spread of the contributions: {@code n} times the largest change of the window's unprojected
         * answer (and the Lipschitz bound on the published one) between two accepted payloads.
         *
         * @throws IllegalStateException if no payload was accepted
         */
        public Influence influence() {
            if (values.isEmpty()) {
                throw new IllegalStateException("no payload was accepted");
            }
            return Spread.ofLevels(values);
        }
    }

    /** The influence of one report with these coordinates over every payload, in the empty window. */
    public Influence atCoordinates(ReportCoordinates coordinates) {
        return contributions(coordinates, allPayloads(), emptyBackground()).influence();
    }

    /**
     * Whether the pairwise differences of the contributions of {@code payloads} at these coordinates are the
     * same, to a relative {@code tolerance}, in the empty window and in {@code other}: the premise that makes
     * the influence independent of the rest of the window.
     */
    public boolean affineOn(ReportCoordinates coordinates, List<byte[]> payloads, Background other, double tolerance) {
        Contributions a = contributions(coordinates, payloads, emptyBackground());
        Contributions b = contributions(coordinates, payloads, other);
        if (a.values.size() != b.values.size() || a.values.isEmpty()) {
            return a.values.size() == b.values.size();
        }
        double scale = Math.max(1e-300, Spread.ofLevels(a.values).l2());
        double[][] a0 = a.values.get(0);
        double[][] b0 = b.values.get(0);
        for (int i = 1; i < a.values.size(); i++) {
            double[][] ai = a.values.get(i);
            double[][] bi = b.values.get(i);
            for (int j = 0; j < ai.length; j++) {
                for (int q = 0; q < ai[j].length; q++) {
                    double da = ai[j][q] - a0[j][q];
                    double db = bi[j][q] - b0[j][q];
                    if (Math.abs(da - db) > tolerance * scale) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
