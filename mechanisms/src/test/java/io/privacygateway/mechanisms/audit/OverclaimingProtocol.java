package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-only control: a real protocol built for a larger ε that claims a smaller one (its {@link #epsilon()}
 * and every level's ε are scaled down by {@code claimed/actual}). Under-noised by construction; an auditor
 * that does not flag it has no power.
 */
final class OverclaimingProtocol implements LocalProtocol, LocalEstimator {
    private final LocalProtocol actual;
    private final Epsilon claimed;
    private final double scale;

    OverclaimingProtocol(LocalProtocol actual, Epsilon claimed) {
        this.actual = actual;
        this.claimed = claimed;
        this.scale = claimed.value() / actual.epsilon().value();
    }

    @Override
    public MechanismId id() {
        return actual.id();
    }

    @Override
    public Epsilon epsilon() {
        return claimed;
    }

    @Override
    public int payloadBytes() {
        return actual.payloadBytes();
    }

    @Override
    public byte[] randomize(int value, ReportCoordinates coordinates, SecretDraws draws) {
        return actual.randomize(value, coordinates, draws);
    }

    @Override
    public int stateLength() {
        return actual.stateLength();
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        return actual.accumulate(payload, coordinates, state);
    }

    @Override
    public LocalProtocol protocol() {
        return this;
    }

    @Override
    public LocalEstimate estimate(long[] state, long n) {
        LocalEstimate e = LocalEstimators.of(actual).estimate(state, n);
        List<LocalEstimate.Level> levels = new ArrayList<>();
        for (LocalEstimate.Level l : e.levels()) {
            levels.add(new LocalEstimate.Level(l.mean(), l.standardErrors(), l.noiseScale(), l.hull(),
                    l.epsilon() * scale, l.radius()));
        }
        return new LocalEstimate(levels, e.biasBound());
    }

    @Override
    public double[] expectedLevelMean(int level, double[] histogram) {
        return LocalEstimators.of(actual).expectedLevelMean(level, histogram);
    }
}
