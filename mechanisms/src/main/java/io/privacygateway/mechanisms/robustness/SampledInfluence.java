package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import java.util.List;

/**
 * The influence of a protocol without a closed form, from {@link ProtocolInfluence}: every payload of at most
 * two bytes, at each of {@code coordinates} sampled report coordinates ({@link MechanismInfluence#probe}).
 *
 * <p>Preconditions, checked at construction: the payloads can be enumerated, and the estimator is affine in
 * the aggregate (the payload differences are the same in the empty window and in a window of honest reports,
 * to a relative {@code 1e-9}); otherwise the influence would depend on the rest of the window and a constant
 * bound would mean nothing. {@link #worst} is the largest over the sampled coordinates only: it covers every
 * payload but not every coin value ({@link #worstCoversAllCoins} is false).
 */
final class SampledInfluence implements MechanismInfluence {
    /** Coordinates sampled by default. */
    static final int DEFAULT_COORDINATES = 256;

    private final ProtocolInfluence generic;
    private final int sampled;
    private final List<byte[]> payloads;
    private final int universe;
    private final Influence worst;
    private final boolean coinDependent;

    SampledInfluence(LocalProtocol protocol, int universeSize, int coordinates) {
        this.generic = new ProtocolInfluence(protocol);
        this.universe = (int) Require.inRange("universeSize", universeSize, 1, Integer.MAX_VALUE);
        this.sampled = (int) Require.inRange("coordinates", coordinates, 1, Integer.MAX_VALUE);
        this.payloads = generic.allPayloads();
        ProtocolInfluence.Background honest = generic.honestBackground(0, 16, 0x9015L);
        if (!generic.affineOn(MechanismInfluence.probe(0), payloads, honest, 1e-9)) {
            throw new IllegalArgumentException(protocol.id().wireName() + ": the estimator is not affine in the"
                    + " aggregate, so one report's influence depends on the rest of the window; give it a closed form");
        }
        Influence w = null;
        boolean varies = false;
        for (int i = 0; i < coordinates; i++) {
            Influence at = atCoordinates(MechanismInfluence.probe(i));
            varies |= w != null && !at.equals(w);
            w = w == null ? at : w.max(at);
        }
        this.worst = w;
        this.coinDependent = varies;
    }

    @Override
    public LocalProtocol protocol() {
        return generic.protocol();
    }

    @Override
    public Influence worst() {
        return worst;
    }

    @Override
    public Influence atCoordinates(ReportCoordinates coordinates) {
        return generic.contributions(coordinates, payloads, generic.emptyBackground()).influence();
    }

    @Override
    public boolean coinDependent() {
        return coinDependent;
    }

    @Override
    public boolean worstCoversAllCoins() {
        return false;
    }

    @Override
    public String basis() {
        return "generic: every payload, over " + sampled + " sampled coordinates (no formula)";
    }

    /** {@code a(x) = Σ_j expectedLevelMean(j, e_x)}, the levels counted from an estimate. */
    @Override
    public PointSet expectedContributions() {
        LocalProtocol p = generic.protocol();
        ProtocolInfluence.Background b = generic.honestBackground(0, 1, 0x9016L);
        LocalEstimator pe = LocalEstimators.of(p);
        LocalEstimate est = pe.estimate(b.state(), 1);
        int levels = est.levels().size();
        int m = est.levels().get(0).mean().length;
        double[][] rows = new double[universe][m];
        double[] e = new double[universe];
        for (int x = 0; x < universe; x++) {
            e[x] = 1;
            for (int j = 0; j < levels; j++) {
                double[] a = pe.expectedLevelMean(j, e);
                for (int q = 0; q < m; q++) {
                    rows[x][q] += a[q];
                }
            }
            e[x] = 0;
        }
        return PointSet.of(m, rows);
    }
}
